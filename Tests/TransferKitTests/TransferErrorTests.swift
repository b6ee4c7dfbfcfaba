// TransferError: codes, messages, pass-through of cancellation and of TransferErrors thrown by closures.
import Foundation
import Testing
import TransferKit

struct Gate: Hashable, Transferable {
    enum Behaviour: Hashable, Sendable { case cancel, transferError, succeed }
    var behaviour: Behaviour

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .testCard) { gate in
            switch gate.behaviour {
            case .cancel: throw CancellationError()
            case .transferError: throw TransferError(.decodingFailed, "custom", contentType: .testSticker)
            case .succeed: return Data("ok".utf8)
            }
        }
    }
}

@Suite("TransferError")
struct TransferErrorTests {
    @Test func noCompatibleRepresentationNamesTheAvailableTypes() async throws {
        let error = await #expect(throws: TransferError.self) { _ = try await "text".exported(as: .pdf) }
        let transferError = try #require(error)
        #expect(transferError.code == .noCompatibleRepresentation)
        #expect(transferError.contentType == .pdf)
        #expect(ids(transferError.availableContentTypes) == ids([.utf8PlainText, .plainText]))
        #expect(
            transferError.message
                == "String has no representation that can export content type com.adobe.pdf"
                + " (available: public.utf8-plain-text, public.plain-text)"
        )
        #expect(String(reflecting: transferError).contains("TransferError(noCompatibleRepresentation)"))
    }

    @Test func descriptionIncludesTheUnderlyingError() {
        let error = TransferError(.importFailed, "cannot import", underlying: PlannedFailure(tag: "why"))
        #expect(error.description == "cannot import: PlannedFailure(tag: \"why\")")
        #expect(TransferError(.exportFailed, "plain").description == "plain")
        let codes: [TransferError.Code] = [.noCompatibleRepresentation, .exportFailed, .importFailed, .decodingFailed]
        let names = ["noCompatibleRepresentation", "exportFailed", "importFailed", "decodingFailed"]
        #expect(codes.map(\.description) == names)
    }

    @Test func cancellationIsNotWrapped() async {
        await #expect(throws: CancellationError.self) { _ = try await Gate(behaviour: .cancel).exported(as: .testCard) }
    }

    @Test func transferErrorsFromClosuresPassThroughUnchanged() async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await Gate(behaviour: .transferError).exported(as: .testCard)
        }
        #expect(error?.code == .decodingFailed && error?.message == "custom" && error?.contentType == .testSticker)
        #expect(try await Gate(behaviour: .succeed).exported(as: nil) == Data("ok".utf8))
    }

    @Test func typesWithoutImportersSaySo() async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await Gate(importing: Data(), contentType: nil)
        }
        #expect(error?.code == .noCompatibleRepresentation)
        #expect(error?.availableContentTypes.isEmpty == true)
    }
}
