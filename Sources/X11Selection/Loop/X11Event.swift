internal import CX11

/// An X event decoded at the edge of the loop, so nothing above `Loop/` touches `XEvent`.
package enum X11Event {
    /// Someone asks us (an owner) to convert `selection` to `target` into `property` on `requestor`.
    case selectionRequest(SelectionRequest)
    /// The owner answered our conversion request (`property` is `none` when refused).
    case selectionNotify(requestor: X11Window, selection: X11Atom, target: X11Atom, property: X11Atom,
                         time: X11Timestamp)
    /// We lost `selection` (ICCCM 2.2).
    case selectionClear(window: X11Window, selection: X11Atom, time: X11Timestamp)
    /// A property changed on a window whose PropertyChange events we selected.
    case propertyNotify(window: X11Window, property: X11Atom, time: X11Timestamp, deleted: Bool)
    /// A window whose StructureNotify events we selected was destroyed.
    case destroyNotify(window: X11Window)
    /// XFixes selection owner notification.
    case ownerChange(FixesOwnerChange)
    /// A ClientMessage about `window` (XDND's messages), with its format and data words (format 32: five).
    case clientMessage(window: X11Window, type: X11Atom, format: Int, words: [UInt])
    /// A pointer button pressed or released, or the pointer moved (reported to us while we grab it, or on
    /// our own windows).
    case pointer(PointerEvent)
    /// A key pressed (while we grab the keyboard, or in our own windows).
    case keyPress(window: X11Window, keycode: UInt8, time: X11Timestamp)
    /// Part of one of our windows must be drawn again; `remaining` more Expose events follow.
    case expose(window: X11Window, remaining: Int)
    /// Anything else.
    case other(type: Int32)

    package struct PointerEvent: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            case press(button: Int)
            case release(button: Int)
            case motion
        }

        package var kind: Kind
        package var window: X11Window
        /// The pointer in `window`'s coordinates.
        package var x: Int
        package var y: Int
        var rootX: Int
        var rootY: Int
        /// Buttons 1 to 3 held before this event (ButtonN masks).
        var buttonsHeld: Bool
        var modifiers: DragModifiers
        package var time: X11Timestamp
    }

    package struct SelectionRequest: Sendable, Equatable {
        var owner: X11Window
        var requestor: X11Window
        var selection: X11Atom
        var target: X11Atom
        var property: X11Atom
        var time: X11Timestamp
    }

    package struct FixesOwnerChange: Sendable, Equatable {
        /// Why the owner changed (the XFixes subtype).
        var reason: OwnerChange.Reason
        var window: X11Window
        var owner: X11Window?
        var selection: X11Atom
        var timestamp: X11Timestamp
        var selectionTimestamp: X11Timestamp
    }

    /// The XFixes selection-notify subtype, by the protocol's names (xfixesproto: SetSelectionOwner,
    /// SelectionWindowDestroy, SelectionClientClose).
    static func ownerChangeReason(_ subtype: Int32) -> OwnerChange.Reason {
        switch subtype {
        case Int32(XFixesSelectionWindowDestroyNotify): .ownerWindowDestroyed
        case Int32(XFixesSelectionClientCloseNotify): .ownerClientClosed
        default: .newOwner
        }
    }

    init(decoding event: inout XEvent, fixesEventBase: Int32?) {
        switch event.type {
        case CX11.SelectionRequest:
            let request = event.xselectionrequest
            self = .selectionRequest(SelectionRequest(
                owner: X11Window(rawValue: UInt(request.owner)),
                requestor: X11Window(rawValue: UInt(request.requestor)),
                selection: X11Atom(rawValue: UInt(request.selection)),
                target: X11Atom(rawValue: UInt(request.target)),
                property: X11Atom(rawValue: UInt(request.property)),
                time: X11Timestamp(rawValue: UInt(request.time))))
        case SelectionNotify:
            let notify = event.xselection
            self = .selectionNotify(
                requestor: X11Window(rawValue: UInt(notify.requestor)),
                selection: X11Atom(rawValue: UInt(notify.selection)),
                target: X11Atom(rawValue: UInt(notify.target)),
                property: X11Atom(rawValue: UInt(notify.property)),
                time: X11Timestamp(rawValue: UInt(notify.time)))
        case SelectionClear:
            let clear = event.xselectionclear
            self = .selectionClear(
                window: X11Window(rawValue: UInt(clear.window)),
                selection: X11Atom(rawValue: UInt(clear.selection)),
                time: X11Timestamp(rawValue: UInt(clear.time)))
        case PropertyNotify:
            let property = event.xproperty
            self = .propertyNotify(
                window: X11Window(rawValue: UInt(property.window)),
                property: X11Atom(rawValue: UInt(property.atom)),
                time: X11Timestamp(rawValue: UInt(property.time)),
                deleted: property.state == PropertyDelete)
        case DestroyNotify:
            self = .destroyNotify(window: X11Window(rawValue: UInt(event.xdestroywindow.window)))
        case ClientMessage:
            let message = event.xclient
            // Xlib widens format-32 items to C longs; a 32-bit value is what the protocol carried.
            let words = withUnsafeBytes(of: message.data.l) { raw in
                raw.bindMemory(to: Int.self).map { UInt(bitPattern: $0) & 0xFFFF_FFFF }
            }
            self = .clientMessage(
                window: X11Window(rawValue: UInt(message.window)), type: X11Atom(rawValue: UInt(message.message_type)),
                format: Int(message.format), words: words)
        case ButtonPress, ButtonRelease:
            let button = event.xbutton
            self = .pointer(PointerEvent(
                kind: event.type == ButtonPress ? .press(button: Int(button.button)) : .release(button: Int(button.button)),
                window: X11Window(rawValue: UInt(button.window)), x: Int(button.x), y: Int(button.y),
                rootX: Int(button.x_root), rootY: Int(button.y_root),
                buttonsHeld: button.state & UInt32(Button1Mask | Button2Mask | Button3Mask) != 0,
                modifiers: DragModifiers(state: button.state), time: X11Timestamp(rawValue: UInt(button.time))))
        case MotionNotify:
            let motion = event.xmotion
            self = .pointer(PointerEvent(
                kind: .motion, window: X11Window(rawValue: UInt(motion.window)), x: Int(motion.x), y: Int(motion.y),
                rootX: Int(motion.x_root), rootY: Int(motion.y_root),
                buttonsHeld: motion.state & UInt32(Button1Mask | Button2Mask | Button3Mask) != 0,
                modifiers: DragModifiers(state: motion.state), time: X11Timestamp(rawValue: UInt(motion.time))))
        case KeyPress:
            let key = event.xkey
            self = .keyPress(
                window: X11Window(rawValue: UInt(key.window)), keycode: UInt8(truncatingIfNeeded: key.keycode),
                time: X11Timestamp(rawValue: UInt(key.time)))
        case Expose:
            self = .expose(window: X11Window(rawValue: UInt(event.xexpose.window)), remaining: Int(event.xexpose.count))
        case let type where fixesEventBase != nil && type == fixesEventBase! + XFixesSelectionNotify:
            let fixes = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee }
            }
            self = .ownerChange(FixesOwnerChange(
                reason: Self.ownerChangeReason(fixes.subtype),
                window: X11Window(rawValue: UInt(fixes.window)),
                owner: fixes.owner == 0 ? nil : X11Window(rawValue: UInt(fixes.owner)),
                selection: X11Atom(rawValue: UInt(fixes.selection)),
                timestamp: X11Timestamp(rawValue: UInt(fixes.timestamp)),
                selectionTimestamp: X11Timestamp(rawValue: UInt(fixes.selection_timestamp))))
        default:
            self = .other(type: event.type)
        }
    }
}
