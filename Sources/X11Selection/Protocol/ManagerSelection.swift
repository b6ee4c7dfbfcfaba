/// Manager selections (ICCCM 2.8) and the clipboard manager's SAVE_TARGETS (freedesktop clipboard-manager
/// spec), as pure rules: who may take a manager selection, what the MANAGER announcement carries, and what a
/// SAVE_TARGETS request asks for.
enum ManagerSelection {
    /// What a would-be manager does about the selection's current owner.
    enum Acquisition: Sendable, Equatable {
        /// Nobody manages it (or we already do): take it.
        case take
        /// Another manager runs: take it and wait for that manager's window to go (ICCCM 2.8: the new
        /// manager "should wait until it receives the DestroyNotify" of the old owner's window).
        case replace(X11Window)
        /// Another manager runs and replacing was not asked for: leave it alone.
        case refuse(X11Window)
    }

    /// The decision for a selection owned by `owner` (nil: nobody), from a client whose window is `ours`.
    static func acquisition(owner: X11Window?, ours: X11Window, replacing: Bool) -> Acquisition {
        guard let owner, owner != ours else { return .take }
        return replacing ? .replace(owner) : .refuse(owner)
    }

    /// The data of the MANAGER client message a new manager sends to the root window (ICCCM 2.8): the
    /// acquisition time, the selection, the owner window, then two selection-specific zeros.
    static func announcement(time: X11Timestamp, selection: X11Atom, owner: X11Window) -> [UInt] {
        [time.rawValue, selection.rawValue, owner.rawValue, 0, 0]
    }

    /// The most targets one SAVE_TARGETS request may name: the list is the requestor's choice, so it is read
    /// only this far (4096 atoms is 16 KiB; real owners name a few dozen).
    static let maximumSaveTargets = 4096

    /// What a SAVE_TARGETS request's property asks for.
    enum SaveTargets: Sendable, Equatable {
        /// No list: every target the owner offers (the spec: "obtained by converting the CLIPBOARD to the
        /// TARGETS target").
        case all
        /// These targets (atoms in the requestor's order, duplicates and None removed).
        case listed([X11Atom])
        /// A property that is not an ATOM list, or longer than `maximumSaveTargets`: refused.
        case malformed
    }

    /// Reads the request's property: absent → `.all` (the spec: "If the named property does not exist");
    /// an ATOM list of format 32 → `.listed`; anything else → `.malformed` ("it must be of type ATOM").
    /// `value` is nil when the request named no property (an obsolete requestor: ICCCM 2.2).
    static func saveTargets(_ value: PropertyValue?, atomType: X11Atom) -> SaveTargets {
        guard let value, value.exists else { return .all }
        guard value.type == atomType, value.format == 32, value.bytesAfter == 0,
            value.itemCount <= maximumSaveTargets
        else { return .malformed }
        var seen = Set<X11Atom>()
        let atoms = Format32.values(value.bytes).map(X11Atom.init(rawValue:)).filter {
            !$0.isNone && seen.insert($0).inserted
        }
        return .listed(atoms)
    }
}
