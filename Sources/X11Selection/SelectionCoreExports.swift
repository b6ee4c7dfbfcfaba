// X11Selection's users see the core's values (`SelectionName`, `SelectionTarget`, the keeper's, sync's and
// bridge's reports) as its own, as swift-nio's `NIO` module re-exports `NIOCore`.
@_exported import SelectionCore
