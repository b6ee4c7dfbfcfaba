// fuzz-properties: the decoding of the format-32 properties an owner or requestor writes (all untrusted):
// - Format32.values / targetAtoms (Sources/X11Selection/Protocol/Format32.swift): TARGETS replies;
// - MultipleRequest (MultipleRequest.swift): a MULTIPLE request's ATOM_PAIR parameter on the owner side, its
//   rejection of nested MULTIPLE and None properties, completion bookkeeping and write-back, and the
//   requestor's parsing of the write-back;
// - SnapshotBatching.announcedSizes (X11Selection's SnapshotBatching.swift): a TARGET_SIZES reply; SelectionCore's
//   SnapshotPolicy.plan over the offered targets;
// - the INCR header: a ReadStateMachine read answered with a property of type INCR (PropertyValue.swift).
//
// Input: byte 0 picks the property's type and format, byte 1 drives the MULTIPLE bookkeeping; the rest is the
// property's data (32-bit little-endian items, as XDisplay.getProperty normalises them).
// Checked: no trap; one item per 4 bytes; MULTIPLE pairs are the items two by two, rejected pairs are exactly
// the nested MULTIPLEs and None properties, completion counts down to zero once per pair, the write-back has
// one item pair per pair with None for each failed one and parses back to the succeeded properties;
// announced sizes name each atom once, never None, never the "unknown" size; the INCR header's size is the
// first item.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import SelectionCore
@testable import X11Selection

private let types: [SelectionTarget] = [.atom, .targets, .atomPair, "INTEGER", .incr]
private let formats = [32, 16, 8, 0]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzReader(fuzzBytes(start, count))
    let shape = Int(input.byte())
    let steering = input.byte()
    let bytes = input.rest()
    let data = Data(bytes)
    let items = Format32.values(data)
    fuzzCheck(items.count == bytes.count / 4, "\(items.count) items from \(bytes.count) bytes")
    for (index, item) in items.enumerated() {
        let expected = UInt(bytes[index * 4]) | UInt(bytes[index * 4 + 1]) << 8 | UInt(bytes[index * 4 + 2]) << 16
            | UInt(bytes[index * 4 + 3]) << 24
        fuzzCheck(item == expected, "item \(index) is \(item), not \(expected)")
    }

    // TARGETS.
    let type = types[shape % types.count]
    let format = formats[(shape / types.count) % formats.count]
    do {
        let atoms = try Format32.targetAtoms(data, type: type, format: format)
        fuzzCheck(format == 32 && (type == .atom || type == .targets), "accepted TARGETS of type \(type)/\(format)")
        fuzzCheck(atoms.map(\.rawValue) == items, "TARGETS atoms differ from the items")
    } catch {
        fuzzCheck(!(format == 32 && (type == .atom || type == .targets)), "refused TARGETS of type ATOM/32: \(error)")
    }

    checkMultiple(items, steering: steering)
    checkSizes(items)
    checkIncrementalHeader(data, format: format)

    // The plan for an offer of these atoms, named by number (a snapshot's TARGETS, after GetAtomName).
    let offered = items.prefix(512).map { SelectionTarget(rawValue: $0 % 7 == 0 ? "TARGETS" : "atom-\($0 % 97)") }
    switch SnapshotPolicy.plan(for: offered) {
    case .sensitive:
        fuzzCheck(false, "an offer without the password hint is sensitive")
    case .keep(let kept):
        fuzzCheck(Set(kept).count == kept.count, "a target kept twice")
        fuzzCheck(kept.allSatisfy { !$0.isMetaTarget && offered.contains($0) }, "kept a meta or unoffered target")
    }
    return 0
}

private func checkMultiple(_ items: [UInt], steering: UInt8) {
    let multipleAtom = X11Atom(rawValue: UInt(steering % 8))
    var request = MultipleRequest(items: items)
    fuzzCheck(request.pairs.count == items.count / 2, "\(request.pairs.count) pairs from \(items.count) items")
    fuzzCheck(request.pending == request.pairs.count && !request.isComplete || request.pairs.isEmpty, "pending \(request.pending)")
    let rejected = request.rejectInvalid(multipleAtom: multipleAtom)
    let invalid = request.pairs.indices.filter {
        request.pairs[$0].target == multipleAtom || request.pairs[$0].property.isNone
    }
    fuzzCheck(rejected == invalid, "rejected \(rejected), invalid \(invalid)")
    fuzzCheck(request.pending == request.pairs.count - rejected.count, "pending \(request.pending) after rejecting \(rejected.count)")
    // The rest complete in an order and with outcomes the steering byte chooses; indices out of range change
    // nothing.
    var succeeded = Set<Int>()
    var remaining = request.pairs.indices.filter { !rejected.contains($0) }
    var turn = 0
    while !remaining.isEmpty {
        let position = (Int(steering) &* 31 &+ turn &* 7) % remaining.count
        let index = remaining.remove(at: position)
        let success = (Int(steering) >> (turn % 8)) & 1 == 1
        if success { succeeded.insert(index) }
        let last = request.complete(index, success: success)
        fuzzCheck(last == remaining.isEmpty, "complete(\(index)) said last: \(last), \(remaining.count) remain")
        if turn % 3 == 0 { _ = request.complete(request.pairs.count + turn, success: true) }
        turn += 1
    }
    fuzzCheck(request.isComplete, "not complete after every pair")
    fuzzCheck(request.complete(0, success: true), "complete after the end")
    fuzzCheck(request.pending == 0, "pending \(request.pending) at the end")
    let writeBack = request.writeBackItems
    fuzzCheck(writeBack.count == request.pairs.count * 2, "write-back of \(writeBack.count) items")
    for (index, pair) in request.pairs.enumerated() {
        fuzzCheck(writeBack[index * 2] == pair.target.rawValue, "write-back target \(index)")
        let expected = succeeded.contains(index) ? pair.property.rawValue : 0
        fuzzCheck(writeBack[index * 2 + 1] == expected, "write-back property \(index): \(writeBack[index * 2 + 1]), not \(expected)")
    }
    let properties = MultipleRequest.succeededProperties(writeBack: writeBack)
    fuzzCheck(properties == Set(succeeded.map { request.pairs[$0].property }), "succeeded properties")
    // The requestor's parse of any item list (an owner's write-back is untrusted).
    let parsed = MultipleRequest.succeededProperties(writeBack: items)
    fuzzCheck(!parsed.contains(.none), "None among the succeeded properties")
}

private func checkSizes(_ items: [UInt]) {
    let sizes = SnapshotBatching.announcedSizes(items)
    fuzzCheck(sizes.count <= items.count / 2, "\(sizes.count) sizes from \(items.count) items")
    fuzzCheck(Set(sizes.map(\.atom)).count == sizes.count, "an atom announced twice")
    for (atom, size) in sizes {
        fuzzCheck(!atom.isNone, "a size for None")
        fuzzCheck(size >= 0 && size < Int(UInt32.max), "size \(size)")
        // The first announcement counts.
        let first = stride(from: 0, to: items.count - 1, by: 2).first {
            items[$0] == atom.rawValue && UInt32(truncatingIfNeeded: items[$0 + 1]) != .max
        }
        fuzzCheck(first.map { Int(items[$0 + 1]) } == size, "\(atom): size \(size) is not its first announcement")
    }
}

/// A read whose reply is a property of type INCR: the machine takes the size from the first item.
private func checkIncrementalHeader(_ data: Data, format: Int) {
    let incr = X11Atom(rawValue: 90)
    var machine = ReadStateMachine(
        request: .init(selection: X11Atom(rawValue: 1), target: X11Atom(rawValue: 2), property: X11Atom(rawValue: 3),
                       time: X11Timestamp(rawValue: 5)),
        incrAtom: incr, bufferLimit: 1 << 20)
    _ = machine.start()
    fuzzCheck(machine.selectionNotified(property: X11Atom(rawValue: 3)) == [.readProperty(offset: 0)], "notify")
    let value = PropertyValue(
        type: incr, format: format, bytes: data, bytesAfter: 0, itemCount: format == 0 ? 0 : data.count / (format / 8))
    fuzzCheck(value.exists, "an INCR property does not exist")
    let actions = machine.propertyRead(value)
    fuzzCheck(actions == [.armIdleDeadline, .probeOwner], "INCR header: \(actions)")
    fuzzCheck(machine.isIncremental && machine.wasIncremental, "not incremental after an INCR header")
    let expected = format == 32 && data.count >= 4 ? Int(Format32.values(data.prefix(4))[0]) : 0
    fuzzCheck(machine.announcedSize == expected, "announced \(machine.announcedSize), not \(expected)")
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_properties_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
