/// The atoms every connection needs, interned in one round trip when it opens.
struct WellKnownAtoms {
    static let names: [String] = [
        "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES", "INCR", "ATOM", "ATOM_PAIR",
        "INTEGER", "NULL", "UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT", "CLIPBOARD_MANAGER", "CLIPBOARD",
        "CLIPBRIDGE_SAVE_TARGETS", "MANAGER",
    ]

    var targets = X11Atom.none
    var multiple = X11Atom.none
    var timestamp = X11Atom.none
    var saveTargets = X11Atom.none
    var delete = X11Atom.none
    var targetSizes = X11Atom.none
    var incr = X11Atom.none
    var atom = X11Atom.none
    var atomPair = X11Atom.none
    var integer = X11Atom.none
    var null = X11Atom.none
    var utf8String = X11Atom.none
    var string = X11Atom.none
    var compoundText = X11Atom.none
    /// The polymorphic text target (ICCCM 2.6.2): the owner picks the encoding.
    var text = X11Atom.none
    var clipboardManager = X11Atom.none
    var clipboard = X11Atom.none
    /// The type of the client message a new manager announces itself with (ICCCM 2.8).
    var manager = X11Atom.none
    /// Property on our window holding the SAVE_TARGETS list for the clipboard manager.
    var saveTargetsProperty = X11Atom.none

    init() {}

    init(table: AtomTable) {
        func get(_ name: String) -> X11Atom { table.cachedAtom(name) ?? .none }
        targets = get("TARGETS")
        multiple = get("MULTIPLE")
        timestamp = get("TIMESTAMP")
        saveTargets = get("SAVE_TARGETS")
        delete = get("DELETE")
        targetSizes = get("TARGET_SIZES")
        incr = get("INCR")
        atom = get("ATOM")
        atomPair = get("ATOM_PAIR")
        integer = get("INTEGER")
        null = get("NULL")
        utf8String = get("UTF8_STRING")
        string = get("STRING")
        compoundText = get("COMPOUND_TEXT")
        text = get("TEXT")
        clipboardManager = get("CLIPBOARD_MANAGER")
        clipboard = get("CLIPBOARD")
        saveTargetsProperty = get("CLIPBRIDGE_SAVE_TARGETS")
        manager = get("MANAGER")
    }
}
