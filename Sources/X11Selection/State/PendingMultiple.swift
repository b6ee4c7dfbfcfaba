/// A MULTIPLE request being served: the pairs, the pending-notify counter, and where to answer.
struct PendingMultiple {
    var request: MultipleRequest
    let claimID: UInt64
    let requestor: X11Window
    let property: X11Atom
    let selection: X11Atom
    let time: X11Timestamp
}

/// Where the answer to one conversion goes: a SelectionNotify of its own, or a pair of a MULTIPLE.
enum ReplyRoute {
    case direct(X11Event.SelectionRequest, property: X11Atom)
    case multiple(id: UInt64, index: Int, requestor: X11Window, property: X11Atom)

    var requestor: X11Window {
        switch self {
        case .direct(let request, _): return request.requestor
        case .multiple(_, _, let requestor, _): return requestor
        }
    }

    var property: X11Atom {
        switch self {
        case .direct(_, let property): return property
        case .multiple(_, _, _, let property): return property
        }
    }
}
