// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — ItemProvider with registered values (no X server)

import ClipBridge
import Foundation
import Glibc
import Synchronization
import Testing
import TransferKit

@Suite struct ItemProviderTests {
    private let profile = Profile(name: "Grace Hopper", phoneNumber: "+1 555 0100")

    @Test func registeredTypesAndConformance() {
        let provider = NSItemProvider()
        provider.register(profile)
        #expect(provider.registeredContentTypes.first == .profile)
        #expect(provider.hasItemConformingTo(.profile))
        #expect(provider.hasItemConformingTo(.text), "the proxy's String exports plain text")
        #expect(provider.hasItemConformingToTypeIdentifier(UTType.profile.identifier))
        #expect(!provider.hasItemConformingTo(.image))
        #expect(provider.registeredTypeIdentifiers == provider.registeredContentTypes.map(\.identifier))
    }

    @Test func loadsTheValueAndItsProxy() async throws {
        let provider = ItemProvider(profile)
        #expect(try await provider.loadTransferable(type: Profile.self) == profile)
        #expect(try await provider.loadTransferable(type: String.self) == profile.name)
        let json = try await provider.loadDataRepresentation(for: .profile)
        #expect(try JSONDecoder().decode(Profile.self, from: json) == profile)
    }

    /// The seeds' call shape: a completion handler with a `Result`.
    @Test func completionHandlersGetResults() async throws {
        let provider = ItemProvider(profile)
        let results = Mutex<[Result<Profile, any Error>]>([])
        let load = provider.loadTransferable(type: Profile.self) { result in results.withLock { $0.append(result) } }
        await load.wait()
        let first = try #require(results.withLock { $0.first })
        #expect(try first.get() == profile)
        let failures = Mutex<[(any Error)?]>([])
        await provider.loadDataRepresentation(for: .png) { data, error in
            #expect(data == nil)
            failures.withLock { $0.append(error) }
        }.wait()
        #expect(failures.withLock { $0.first ?? nil } != nil)
    }

    /// The file lives while the handler runs: private, with the type's bytes; gone afterwards.
    @Test func aFileRepresentationLastsUntilTheHandlerReturns() async throws {
        let provider = ItemProvider(profile)
        let seen = try await provider.loadFileRepresentation(for: .profile) { url -> (String, Data, UInt32) in
            var info = stat()
            #expect(stat(url.path, &info) == 0)
            return (url.path, try Data(contentsOf: url), UInt32(info.st_mode & 0o777))
        }
        #expect(try JSONDecoder().decode(Profile.self, from: seen.1) == profile)
        #expect(seen.2 == 0o600)
        #expect(!FileManager.default.fileExists(atPath: seen.0))
        let handled = Mutex<[(URL?, Bool, Bool)]>([])
        await provider.loadFileRepresentation(for: .profile) { url, inPlace, error in
            handled.withLock { $0.append((url, url.map { FileManager.default.fileExists(atPath: $0.path) } ?? false, error == nil)) }
            _ = inPlace
        }.wait()
        let (url, existed, succeeded) = try #require(handled.withLock { $0.first })
        #expect(existed && succeeded)
        #expect(url.map { !FileManager.default.fileExists(atPath: $0.path) } == true)
    }

    @Test func aTypeNotOfferedIsAClearError() async throws {
        let provider = ItemProvider(profile)
        await #expect(throws: ClipboardError.self) { _ = try await provider.loadTransferable(type: Todo.self) }
        await #expect(throws: ClipboardError.self) { _ = try await provider.loadDataRepresentation(for: .pdf) }
    }
}
