// WaylandTypeMapping: what each side is offered for the other's owner, and where the bytes come from.

import Testing
import WaylandBridge
import X11Selection

@Suite("Types between X targets and Wayland MIME types")
struct WaylandTypeMappingTests {
    typealias X = WaylandTypeMapping.XRepresentation
    typealias W = WaylandTypeMapping.WaylandRepresentation

    @Test("wl-copy's text offer becomes X's text family where its first text type stood, then its MIME names")
    func wlCopyText() {
        let offer = WaylandTypeMapping.xOffer(forWayland: ["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"])
        #expect(offer == [
            X(target: .utf8String, mimeType: "text/plain;charset=utf-8", conversion: .verbatim(type: .utf8String)),
            X(target: .text, mimeType: "text/plain;charset=utf-8", conversion: .text),
            X(target: .string, mimeType: "text/plain;charset=utf-8", conversion: .latin1),
            X(target: "text/plain", mimeType: "text/plain", conversion: .verbatim(type: "text/plain")),
            X(target: "text/plain;charset=utf-8", mimeType: "text/plain;charset=utf-8", conversion: .verbatim(type: "text/plain;charset=utf-8")),
        ])
    }

    @Test("a rich Wayland offer keeps its order; text comes from the best UTF-8 type; other names cross unchanged")
    func richWaylandOffer() {
        // GTK 4 under Wayland copying from a web view: HTML first.
        let offer = WaylandTypeMapping.xOffer(forWayland: ["text/html", "UTF8_STRING", "image/png", "application/x-clipbridge-bridged"])
        #expect(offer.map(\.target) == ["text/html", .utf8String, .text, .string, "image/png", "application/x-clipbridge-bridged"])
        #expect(offer[1].mimeType == "UTF8_STRING", "no charset type: the X name is the UTF-8 source")
        #expect(offer.first { $0.target == "image/png" }?.conversion == .verbatim(type: "image/png"))
        // Without any UTF-8 text type, the X names of the text family are not offered at all: their bytes are unknown.
        #expect(WaylandTypeMapping.xOffer(forWayland: ["STRING", "image/png"]).map(\.target) == ["image/png"])
        #expect(WaylandTypeMapping.xOffer(forWayland: []).isEmpty)
        // The sensitive hint and the bridges' marks cross as they are, for the policy to see.
        #expect(WaylandTypeMapping.xOffer(forWayland: ["text/plain;charset=utf-8", "x-kde-passwordManagerHint"]).map(\.target)
                    .contains(SelectionOffer.passwordManagerHint))
    }

    @Test("an X owner's text is offered to Wayland as UTF-8 under its three names, from its best text target")
    func xText() {
        let offer = WaylandTypeMapping.waylandOffer(forX: ["text/html", .utf8String, .compoundText, .text, .string, "text/plain;charset=utf-8", "image/png"])
        #expect(offer == [
            W(mimeType: "text/html", target: "text/html", conversion: .verbatim),
            W(mimeType: "text/plain;charset=utf-8", target: .utf8String, conversion: .utf8Text(from: .utf8String)),
            W(mimeType: "text/plain", target: .utf8String, conversion: .utf8Text(from: .utf8String)),
            W(mimeType: "UTF8_STRING", target: .utf8String, conversion: .utf8Text(from: .utf8String)),
            W(mimeType: "image/png", target: "image/png", conversion: .verbatim),
        ])
        // An owner with STRING only (xclip -t STRING, old Motif apps): decoded from ISO-8859-1 when pasted.
        #expect(WaylandTypeMapping.waylandOffer(forX: [.string]).map(\.conversion) == Array(repeating: .utf8Text(from: .string), count: 3))
        // Qt's image offer, no text: every name as it is, in order.
        let qt: [SelectionTarget] = ["application/x-qt-image", "image/png", "image/bmp", "text/uri-list"]
        #expect(WaylandTypeMapping.waylandOffer(forX: qt).map(\.mimeType) == qt.map(\.rawValue))
    }

    @Test("types without text survive X → Wayland → X unchanged, in order, for any list of distinct names")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 0...40, using: &generator)
            let names = (0..<count).map { index -> SelectionTarget in
                let kinds = ["image/x-\(index)", "application/x-app-\(UInt32.random(in: 0...UInt32.max, using: &generator))",
                             "_NETSCAPE_URL_\(index)", "chromium/x-\(index)"]
                return SelectionTarget(rawValue: kinds[index % kinds.count])
            }
            let wayland = WaylandTypeMapping.waylandOffer(forX: names).map(\.mimeType)
            #expect(WaylandTypeMapping.xOffer(forWayland: wayland).map(\.target) == names)
        }
    }

    @Test("either bridge mark makes an owner another bridge's claim")
    func marks() {
        #expect(BridgePolicy.plan(for: ["UTF8_STRING", "application/x-clipbridge-bridged"], includeSensitive: true) == .skipBridged)
        #expect(BridgePolicy.plan(for: ["_CLIPBRIDGE_BRIDGED"], includeSensitive: true) == .skipBridged)
    }
}

@Suite("Sharing the work with a compositor that syncs its own XWayland")
struct CompositorSyncTests {
    func change(_ owner: UInt?, ours: Bool = false) -> OwnerChange {
        OwnerChange(
            selection: .clipboard, reason: owner == nil ? .ownerClientClosed : .newOwner, owner: owner.map(X11Window.init(rawValue:)),
            timestamp: .currentTime, selectionTimestamp: .currentTime, isOwnedByThisProcess: ours)
    }

    @Test("the compositor's claims are never sources; with an X window focused both sides' changes are its to carry")
    func decisions() {
        let app = change(0x60_0001)
        #expect(CompositorSync.xChange(meaning: app.meaning, ownerIsWindowManager: false, xHasFocus: false) == nil)
        #expect(CompositorSync.xChange(meaning: app.meaning, ownerIsWindowManager: false, xHasFocus: true) == .ours)
        #expect(CompositorSync.xChange(meaning: change(0x20_0001).meaning, ownerIsWindowManager: true, xHasFocus: false) == .ours)
        // Ours, and nobody: decided as usual (ours is ignored anyway; an owner gone withdraws).
        #expect(CompositorSync.xChange(meaning: change(0x40_0001, ours: true).meaning, ownerIsWindowManager: false, xHasFocus: true) == nil)
        #expect(CompositorSync.xChange(meaning: change(nil).meaning, ownerIsWindowManager: false, xHasFocus: true) == nil)
        #expect(CompositorSync.waylandOffer(xHasFocus: true) == .ours)
        #expect(CompositorSync.waylandOffer(xHasFocus: false) == nil)
        // The focus leaves X: the compositor's X claim of a Wayland app's content is made ours again — not with the focus,
        // not over an app's X claim, not for nothing, not for our own Wayland source.
        #expect(CompositorSync.reoffersOnX(xHasFocus: false, xOwnerIsWindowManager: true, waylandHasForeignOffer: true))
        #expect(!CompositorSync.reoffersOnX(xHasFocus: true, xOwnerIsWindowManager: true, waylandHasForeignOffer: true))
        #expect(!CompositorSync.reoffersOnX(xHasFocus: false, xOwnerIsWindowManager: false, waylandHasForeignOffer: true))
        // Nothing offered on Wayland, or our own source there.
        #expect(!CompositorSync.reoffersOnX(xHasFocus: false, xOwnerIsWindowManager: true, waylandHasForeignOffer: false))
    }

    @Test("a window manager's windows share its client's resource-ID base")
    func windowManagerWindows() {
        let manager = WindowManager(name: "wlroots wm", checkWindow: X11Window(rawValue: 0x20_0004), resourceIDMask: 0x1F_FFFF)
        #expect(manager.isWaylandCompositor)
        #expect(manager.madeWindow(X11Window(rawValue: 0x20_0001)))
        #expect(!manager.madeWindow(X11Window(rawValue: 0x40_0001)))
        #expect(!WindowManager(name: "KWin", checkWindow: X11Window(rawValue: 0x20_0004), resourceIDMask: 0x1F_FFFF).isWaylandCompositor)
    }

    @Test("X has the focus when _NET_ACTIVE_WINDOW names an application's window: not None, not the window manager's own (newer wlroots)")
    func focus() {
        let manager = WindowManager(name: "wlroots wm", checkWindow: X11Window(rawValue: 0x20_0004), resourceIDMask: 0x1F_FFFF)
        #expect(CompositorSync.xHasFocus(activeWindow: X11Window(rawValue: 0x40_002C), windowManager: manager))
        #expect(!CompositorSync.xHasFocus(activeWindow: nil, windowManager: manager))
        #expect(!CompositorSync.xHasFocus(activeWindow: X11Window(rawValue: 0), windowManager: manager))
        // sway 1.12: the xwm's "no focus" window once the focus left X.
        #expect(!CompositorSync.xHasFocus(activeWindow: X11Window(rawValue: 0x20_0005), windowManager: manager))
    }

    @Test("a history entry is served on Wayland under its own names when it names Wayland's UTF-8 text or no text at all; X-named text is translated")
    func entriesServedAsKept() {
        // Recorded on Wayland: wl-copy's five names (TEXT and STRING hold its UTF-8 too), GTK 4's two.
        #expect(WaylandTypeMapping.servesAsKept(["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"]))
        #expect(WaylandTypeMapping.servesAsKept(["text/html", "text/plain;charset=UTF-8"]))
        // No text: every name crosses as it is either way.
        #expect(WaylandTypeMapping.servesAsKept(["image/png", "application/x-private"]))
        #expect(WaylandTypeMapping.servesAsKept([]))
        // Recorded on X: text under X's names only (STRING in ISO-8859-1, bare text/plain from GTK 3).
        #expect(!WaylandTypeMapping.servesAsKept(["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT"]))
        #expect(!WaylandTypeMapping.servesAsKept(["text/html", "STRING"]))
        #expect(!WaylandTypeMapping.servesAsKept(["text/plain"]))
    }
}
