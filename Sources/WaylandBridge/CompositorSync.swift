import SelectionCore
import X11Selection

/// How the bridge shares the work with a compositor that syncs its own XWayland: what it leaves to the compositor,
/// and where it must read ahead. Pure decisions, from what was measured with sway 1.7 (wlroots 0.15) headless:
///
/// - A Wayland copy made while an X window has the focus becomes the X claim of the compositor's window manager at
///   once; one made while none has it, when an X window next gets the focus. That claim then answers X requestors
///   only while an X window has the focus.
/// - An X copy made while an X window has the focus becomes the compositor's Wayland source; one made while none has
///   it is left alone — until an X window gets the focus, when the compositor's claim of the Wayland content replaces
///   it, and the X copy is lost.
///
/// So the bridge takes the other cases and leaves the compositor's alone: with an X window focused it ignores both
/// sides' changes (the compositor carries them, and a claim of ours would make it mirror ours back over the
/// application's — the content would then relay to itself); the compositor's own X claims are never sources (they
/// mirror the Wayland content). Without the focus it bridges as between any two sides, except that an X copy is
/// read whole before it is offered on Wayland: the compositor takes the X selection from its application when an X
/// window next gets the focus, so a relay would have nothing left to read. When the focus leaves X, the Wayland content
/// the compositor holds on X is claimed again by the bridge, for the X requestors the compositor would refuse.
///
/// Measured again with sway 1.12 (wlroots 0.20), with the same results, except how the focus leaving X shows
/// (``xHasFocus(activeWindow:windowManager:)``).
package enum CompositorSync {
    /// Whether an X window has the focus, from the root's `_NET_ACTIVE_WINDOW`: a window, and not one of the window
    /// manager's own. wlroots' XWayland window manager names its own "no focus" window there when a Wayland surface
    /// has the focus (xwayland/xwm.c, `xwm_set_net_active_window(xwm, xwm->no_focus_window)`), where older wlroots
    /// left None: measured, sway 1.12 (wlroots 0.20) leaves 0x200005 once the focus leaves X, sway 1.7 leaves 0.
    package static func xHasFocus(activeWindow: X11Window?, windowManager: WindowManager) -> Bool {
        guard let activeWindow, activeWindow.rawValue != 0 else { return false }
        return !windowManager.madeWindow(activeWindow)
    }

    /// What an X owner change means when the compositor syncs the X display; nil: decide as usual. The compositor's
    /// own copy is an echo, as the bridge's own claim is (`.ours`).
    /// - Parameters:
    ///   - meaning: what the change means as the X side told it (our own claims, and nobody owning it, are decided
    ///     as usual: ours are ignored anyway, an owner gone withdraws).
    ///   - ownerIsWindowManager: the new owner is a window of the compositor's window manager.
    ///   - xHasFocus: an X window has the focus (`_NET_ACTIVE_WINDOW`).
    package static func xChange(meaning: OwnerChangeMeaning, ownerIsWindowManager: Bool, xHasFocus: Bool) -> OwnerChangeMeaning? {
        guard meaning == .newOwner else { return nil }
        if ownerIsWindowManager || xHasFocus { return .ours }
        return nil
    }

    /// Whether the Wayland offer of a selection is offered on X again when the focus leaves X: the compositor took the X
    /// selection with it while an X window had the focus, and refuses X requestors without the focus from then on, so
    /// the bridge claims X with it again — a claim the compositor leaves alone while no X window has the focus.
    /// - Parameter waylandHasForeignOffer: a Wayland client's offer (not one of ours) holds the selection.
    package static func reoffersOnX(xHasFocus: Bool, xOwnerIsWindowManager: Bool, waylandHasForeignOffer: Bool) -> Bool {
        !xHasFocus && xOwnerIsWindowManager && waylandHasForeignOffer
    }

    /// What a Wayland offer (not ours) means when the compositor syncs the X display; nil: decide as usual.
    package static func waylandOffer(xHasFocus: Bool) -> OwnerChangeMeaning? {
        xHasFocus ? .ours : nil
    }
}
