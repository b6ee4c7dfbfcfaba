// fuzz-read-machine: ReadStateMachine (Sources/X11Selection/Protocol/ReadStateMachine.swift), the requestor
// side of one conversion (ICCCM 2.4, 2.7.2), fed an event sequence decoded from the input.
//
// Two modes (byte 0, bit 0):
// - driver: the machine is driven as X11Connection's and BlockingSelectionReader's drivers drive it, against
//   a model of the X server (our window's property: GetProperty slices it, deletes it once read to the end,
//   and queues PropertyNotify events) and a hostile owner that the input scripts: it writes, replaces and
//   deletes the property (any type, INCR included, any format and size), sends SelectionNotify with any
//   selection, target, property and time (the driver passes on only those `answers` accepts), dies; the
//   clock fires deadlines and owner probes, the server hands out fresh times, the consumer takes delivered
//   bytes at its own pace (or at once), a MULTIPLE parent answers for a read that is one of its pairs;
// - raw: every mutating method is called with arbitrary arguments in any order (a property read with any
//   type, format, size and bytesAfter; consumed counts; windows; times).
//
// Checked after each step, in both modes: no trap; nothing after `.finish` or `.fail` (not even another
// action in the same list), and never both or either twice; a finished machine stays finished; the bytes
// delivered add up to `byteCount`; `bufferedBytes` is never negative; `answers` accepts only our selection,
// our target (or an alternative of TEXT) and our property or None, at our time. In driver mode also:
// `bufferedBytes` equals the bytes delivered and not yet consumed; property reads start at multiples of 4
// and are never asked for when none is due; one round of actions ends (no endless read loop); once the input
// is spent and everything is consumed, a few deadline expiries end the read.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import X11Selection

// The atoms of the model: our request's, a few others, and None.
private let selection = X11Atom(rawValue: 1)
private let target = X11Atom(rawValue: 2)
private let property = X11Atom(rawValue: 3)
private let stringAtom = X11Atom(rawValue: 31)
private let incrAtom = X11Atom(rawValue: 90)
private let atoms: [X11Atom] = [.none, selection, target, property, stringAtom, incrAtom, X11Atom(rawValue: 7)]
private let windows: [X11Window?] = [nil, X11Window(rawValue: 0x40_0001), X11Window(rawValue: 0x40_0002), X11Window(rawValue: 0x60_0001)]
private let times: [X11Timestamp] = [.currentTime, X11Timestamp(rawValue: 5), X11Timestamp(rawValue: 6), X11Timestamp(rawValue: 0xFFFF_FFFF)]

/// Most steps one input drives (each a handful of calls); most actions one round of `perform` may produce.
private let maximumSteps = 4096
private let maximumActionsPerRound = 100_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzReader(fuzzBytes(start, count))
    let setup = input.byte()
    let bufferLimit = [1, 5, 64, 4096, Int.max][Int(input.byte()) % 5]
    let sliceBytes = [1, 4, 8, 13, 64, 4 << 20][Int(input.byte()) % 6]
    let time = times[Int(setup >> 1) % times.count]
    let request = ReadStateMachine.Request(
        selection: selection, target: target, property: property, time: time,
        alternativeTargets: setup & 0x08 != 0 ? [stringAtom] : [])
    let machine = ReadStateMachine(request: request, incrAtom: incrAtom, bufferLimit: bufferLimit, sliceBytes: sliceBytes)
    fuzzCheck(machine.sliceBytes % 4 == 0 && machine.sliceBytes >= 4, "slice of \(machine.sliceBytes) bytes")
    if setup & 1 == 0 {
        var driver = Driver(machine: machine, input: input, isMultipleChild: setup & 0x10 != 0, consumesAtOnce: setup & 0x20 != 0)
        driver.run()
    } else {
        var raw = Raw(machine: machine, input: input)
        raw.run()
    }
    return 0
}

/// What every step checks, whoever drives the machine.
private struct Observer {
    var ended = false
    var delivered = 0

    /// Records one call's actions and checks them.
    mutating func record(_ actions: [ReadStateMachine.Action], of machine: ReadStateMachine, call: String) {
        if ended {
            fuzzCheck(actions.isEmpty, "\(call) after the read ended: \(actions)")
            fuzzCheck(machine.isFinished, "the machine left .finished after \(call)")
        }
        for (index, action) in actions.enumerated() {
            switch action {
            case .finish, .fail:
                fuzzCheck(!ended, "a second end: \(action) from \(call)")
                fuzzCheck(index == actions.count - 1, "\(action) is not the last action of \(call): \(actions)")
                fuzzCheck(machine.isFinished, "\(action) from \(call) but the state is \(machine.state)")
                ended = true
            case .deliver(let bytes):
                delivered += bytes.count
            default:
                break
            }
        }
        fuzzCheck(delivered == machine.byteCount, "delivered \(delivered) bytes, byteCount \(machine.byteCount)")
        fuzzCheck(machine.bufferedBytes >= 0, "bufferedBytes \(machine.bufferedBytes)")
        fuzzCheck(!ended || machine.isFinished, "ended but not finished")
    }

    /// `answers` accepts only notifies that can be ours.
    func checkAnswers(_ accepted: Bool, _ machine: ReadStateMachine, selection: X11Atom, target: X11Atom,
                      property: X11Atom, time: X11Timestamp) {
        guard accepted else { return }
        let request = machine.request
        fuzzCheck(selection == request.selection, "accepted a notify for selection \(selection)")
        fuzzCheck(target == request.target || request.alternativeTargets.contains(target), "accepted a notify for target \(target)")
        fuzzCheck(property.isNone || property == request.property, "accepted a notify for property \(property)")
        fuzzCheck(
            request.time == .currentTime || time == .currentTime || time == request.time,
            "accepted a notify of time \(time) for a request of time \(request.time)")
    }
}

// MARK: - Driver mode

/// The X server's copy of our window's property.
private struct ServerProperty {
    var type: X11Atom
    var format: Int
    var bytes: [UInt8]
}

/// An event the server queued for our client.
private enum Event {
    case notify(selection: X11Atom, target: X11Atom, property: X11Atom, time: X11Timestamp)
    case propertyChanged(deleted: Bool)
    case destroyed(X11Window)
    case freshTime(X11Timestamp)
}

private struct Driver {
    var machine: ReadStateMachine
    var input: FuzzReader
    /// A pair of a MULTIPLE request: its answer comes from the parent, not from a SelectionNotify.
    let isMultipleChild: Bool
    /// The blocking reader's consumer takes each delivery at once; the connection's may lag.
    let consumesAtOnce: Bool
    var observer = Observer()
    var server: ServerProperty?
    var events: [Event] = []
    var unconsumed = 0
    var probeArmed = false
    var timestampAsked = false
    var multipleAnswered = false
    var readsDue = 0
    var owner: X11Window? = X11Window(rawValue: 0x40_0001)
    var nextTime: UInt = 100

    init(machine: ReadStateMachine, input: FuzzReader, isMultipleChild: Bool, consumesAtOnce: Bool) {
        self.machine = machine
        self.input = input
        self.isMultipleChild = isMultipleChild
        self.consumesAtOnce = consumesAtOnce
    }

    mutating func run() {
        perform(machine.start(), call: "start")
        var steps = 0
        while !input.isAtEnd && steps < maximumSteps {
            steps += 1
            step(input.byte())
        }
        // The input is spent: the server delivers what it queued, the consumer drains (which may read the rest of
        // a property slice by slice), and the clock runs. A read must end within a few deadlines of the last
        // event.
        for _ in 0..<4 where !machine.isFinished {
            var rounds = 0
            repeat {
                rounds += 1
                fuzzCheck(rounds <= maximumActionsPerRound, "draining the read did not end")
                deliverEvents()
                consumeAll()
            } while !events.isEmpty || unconsumed > 0
            perform(machine.deadlinePassed(), call: "deadlinePassed (drain)")
        }
        fuzzCheck(machine.isFinished, "the read did not end after the input and four deadlines: \(machine.state)")
    }

    mutating func step(_ choice: UInt8) {
        switch choice % 16 {
        case 0, 1:  // The owner writes (replaces) the property: any type, format and size.
            let type = input.pick([target, stringAtom, incrAtom, incrAtom, X11Atom(rawValue: 7), .none])
            let format = input.pick([8, 8, 16, 32, 32, 0])
            let length = input.pick([0, 0, 1, 3, 4, 5, 8, 64, 200, 5000])
            var bytes = input.bytes(length)
            if bytes.count < length { bytes += [UInt8](repeating: 0xAB, count: length - bytes.count) }
            server = ServerProperty(type: type, format: format, bytes: bytes)
            events.append(.propertyChanged(deleted: false))
        case 2:  // The owner deletes the property.
            if server != nil { events.append(.propertyChanged(deleted: true)) }
            server = nil
        case 3, 4:  // A SelectionNotify from anyone.
            events.append(.notify(
                selection: input.pick(atoms), target: input.pick(atoms), property: input.pick(atoms), time: input.pick(times)))
        case 5:  // The right notify, as an honest owner sends it.
            events.append(.notify(selection: selection, target: target, property: property, time: machine.request.time))
        case 6, 7:  // The server delivers the next event(s).
            deliverEvents(limit: Int(input.byte() % 4) + 1)
        case 8:  // The consumer takes some bytes.
            consume(input.below(unconsumed + 1))
        case 9:  // The deadline armed for this read passes.
            perform(machine.deadlinePassed(), call: "deadlinePassed")
        case 10:  // The owner probe fires (armed or not: a driver may race its timer).
            if probeArmed || input.bool() {
                probeArmed = false
                perform(machine.probeDue(), call: "probeDue")
            }
        case 11:  // A window is destroyed: the owner's or another.
            if let window = input.pick(windows) {
                if window == owner { owner = nil }
                events.append(.destroyed(window))
            }
        case 12:  // The owner gives up the selection, or another client takes it.
            owner = input.pick(windows)
        case 13:  // The server time advances; a requested fresh time arrives.
            if timestampAsked {
                timestampAsked = false
                nextTime += UInt(input.byte())
                events.append(.freshTime(X11Timestamp(rawValue: nextTime)))
            }
        case 14:  // The parent MULTIPLE read answers for our pair.
            if isMultipleChild && !multipleAnswered {
                multipleAnswered = true
                perform(machine.multipleAnswered(converted: input.bool()), call: "multipleAnswered")
            }
        default:  // The consumer drains everything.
            consumeAll()
        }
    }

    mutating func deliverEvents(limit: Int = .max) {
        var delivered = 0
        while !events.isEmpty && delivered < limit {
            delivered += 1
            switch events.removeFirst() {
            case .notify(let notifiedSelection, let notifiedTarget, let notifiedProperty, let notifiedTime):
                let accepted = machine.answers(
                    selection: notifiedSelection, target: notifiedTarget, property: notifiedProperty, time: notifiedTime)
                observer.checkAnswers(
                    accepted, machine, selection: notifiedSelection, target: notifiedTarget, property: notifiedProperty,
                    time: notifiedTime)
                // The connection routes notifies of a MULTIPLE pair to its parent.
                if accepted && !isMultipleChild {
                    perform(machine.selectionNotified(property: notifiedProperty), call: "selectionNotified")
                }
            case .propertyChanged(let deleted):
                perform(machine.propertyChanged(deleted: deleted), call: "propertyChanged(deleted: \(deleted))")
            case .destroyed(let window):
                perform(machine.windowDestroyed(window), call: "windowDestroyed")
            case .freshTime(let time):
                perform(machine.freshTime(time), call: "freshTime")
            }
        }
    }

    mutating func consume(_ count: Int) {
        guard count > 0 else { return }
        unconsumed -= count
        perform(machine.consumed(count), call: "consumed(\(count))")
    }

    mutating func consumeAll() { consume(unconsumed) }

    /// Carries out actions as the drivers do: property reads and owner probes at once (round trips), the
    /// rest recorded.
    mutating func perform(_ initial: [ReadStateMachine.Action], call: String) {
        var queue = initial[...]
        var performed = 0
        observer.record(initial, of: machine, call: call)
        defer { checkBuffer(call) }
        while let action = queue.popFirst() {
            performed += 1
            fuzzCheck(performed <= maximumActionsPerRound, "one round of actions did not end (\(call))")
            var next: [ReadStateMachine.Action] = []
            var nextCall = ""
            switch action {
            case .readProperty(let offset):
                fuzzCheck(offset >= 0 && offset % 4 == 0, "a property read at offset \(offset)")
                fuzzCheck(
                    machine.state == .readingReply || machine.state == .incremental,
                    "a property read asked in state \(machine.state)")
                next = machine.propertyRead(getProperty(offset: offset))
                nextCall = "propertyRead(offset \(offset))"
            case .deliver(let bytes):
                fuzzCheck(!bytes.isEmpty, "an empty delivery")
                unconsumed += bytes.count
                if consumesAtOnce {
                    unconsumed -= bytes.count
                    next = machine.consumed(bytes.count)
                    nextCall = "consumed(\(bytes.count)) at once"
                }
            case .probeOwner:
                next = machine.ownerProbed(owner)
                nextCall = "ownerProbed"
            case .armProbe:
                probeArmed = true
            case .requestTimestamp:
                timestampAsked = true
            case .convert, .watchOwner, .armIdleDeadline, .shortenReplyDeadline, .finish, .fail:
                break
            }
            if !nextCall.isEmpty {
                observer.record(next, of: machine, call: nextCall)
                queue.append(contentsOf: next)
            }
        }
    }

    /// Checked once a round of actions is done (within one, deliveries are still being handed over).
    func checkBuffer(_ call: String) {
        fuzzCheck(
            machine.bufferedBytes == unconsumed || machine.isFinished,
            "bufferedBytes \(machine.bufferedBytes), but \(unconsumed) delivered and not consumed (after \(call))")
    }

    /// GetProperty(delete: true, offset, length: sliceBytes) against the model: nil for a request error (an
    /// offset past the end is BadValue), a missing property as type None; the property is deleted when the
    /// read reaches its end, which queues a PropertyNotify.
    mutating func getProperty(offset: Int) -> PropertyValue? {
        guard let current = server else {
            return PropertyValue(type: .none, format: 0, bytes: Data(), bytesAfter: 0, itemCount: 0)
        }
        guard offset <= current.bytes.count else { return nil }
        let end = min(current.bytes.count, offset + machine.sliceBytes)
        let slice = Data(current.bytes[offset..<end])
        let after = current.bytes.count - end
        if after == 0 {
            server = nil
            events.append(.propertyChanged(deleted: true))
        }
        let unit = current.format == 0 ? 1 : current.format / 8
        return PropertyValue(type: current.type, format: current.format, bytes: slice, bytesAfter: after, itemCount: slice.count / unit)
    }
}

// MARK: - Raw mode

private struct Raw {
    var machine: ReadStateMachine
    var input: FuzzReader
    var observer = Observer()

    mutating func run() {
        record(machine.start(), "start")
        var steps = 0
        while !input.isAtEnd && steps < maximumSteps {
            steps += 1
            switch input.byte() % 12 {
            case 0:
                let (s, t, p, time) = (input.pick(atoms), input.pick(atoms), input.pick(atoms), input.pick(times))
                observer.checkAnswers(
                    machine.answers(selection: s, target: t, property: p, time: time), machine, selection: s, target: t,
                    property: p, time: time)
            case 1:
                record(machine.selectionNotified(property: input.pick(atoms)), "selectionNotified")
            case 2:
                record(machine.multipleAnswered(converted: input.bool()), "multipleAnswered")
            case 3, 4:
                record(machine.propertyRead(propertyValue()), "propertyRead")
            case 5:
                record(machine.freshTime(input.pick(times)), "freshTime")
            case 6:
                record(machine.propertyChanged(deleted: input.bool()), "propertyChanged")
            case 7:
                // What a consumer can have taken: never a negative count.
                let count = input.pick([0, 1, 3, 4, 64, 1 << 20, Int.max])
                record(machine.consumed(count), "consumed(\(count))")
            case 8:
                record(machine.probeDue(), "probeDue")
            case 9:
                record(machine.ownerProbed(input.pick(windows)), "ownerProbed")
            case 10:
                if let window = input.pick(windows) { record(machine.windowDestroyed(window), "windowDestroyed") }
            default:
                if input.byte() == 0xFF {
                    machine.abandon()
                    fuzzCheck(machine.isFinished, "abandon did not finish the read")
                    observer.ended = true
                } else {
                    record(machine.deadlinePassed(), "deadlinePassed")
                }
            }
        }
    }

    mutating func record(_ actions: [ReadStateMachine.Action], _ call: String) {
        observer.record(actions, of: machine, call: call)
    }

    /// Any reply, or a failed request: every field from the input, consistent or not.
    mutating func propertyValue() -> PropertyValue? {
        guard input.byte() != 0 else { return nil }
        let type = input.pick(atoms)
        let format = input.pick([0, 8, 16, 32, 7])
        let bytes = Data(input.bytes(input.pick([0, 1, 2, 4, 7, 64, 300])))
        // The server's counts are never negative.
        let bytesAfter = input.pick([0, 0, 1, 4, 1000, 1 << 30, Int.max])
        let itemCount = input.pick([0, bytes.count, bytes.count / 4])
        return PropertyValue(type: type, format: format, bytes: bytes, bytesAfter: bytesAfter, itemCount: itemCount)
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_read_machine_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
