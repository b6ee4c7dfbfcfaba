/// When one selection's new content is copied to another (the autocutsel job: PRIMARY ↔ CLIPBOARD), as pure
/// rules.
///
/// - Only a new owner that is another client's is copied: our own claims are the copies themselves, so a
///   sync in both directions never bounces back (no ping-pong).
/// - Not at once: the content has to settle. A PRIMARY selection is claimed when a drag starts and keeps
///   growing until the button is released (GTK, Qt, Firefox), so the copy waits until no pointer button is
///   held and `settle` passed since the last change — but never longer than `maximumWait`, after which the
///   content is taken as it is (a button stuck down must not stop the sync for good).
package enum SyncPolicy {
    /// How often the pointer is looked at while a button is held.
    package static let pollInterval: Duration = .milliseconds(50)

    /// Whether a change of the source selection starts a copy: another client's new content only.
    package static func copies(_ change: OwnerChangeMeaning) -> Bool {
        change == .newOwner
    }

    /// The next step of the wait that started `waited` ago (the change itself was `settle` or more ago once
    /// `waited >= settle`).
    package enum Step: Sendable, Equatable {
        /// Look again after this long.
        case wait(Duration)
        /// Copy now.
        case copy
    }

    /// The step after the change, `waited` ago, with a button `buttonHeld` now.
    package static func step(waited: Duration, buttonHeld: Bool, settle: Duration, maximumWait: Duration) -> Step {
        if waited >= maximumWait { return .copy }
        if waited < settle { return .wait(settle - waited) }
        return buttonHeld ? .wait(min(pollInterval, maximumWait - waited)) : .copy
    }
}
