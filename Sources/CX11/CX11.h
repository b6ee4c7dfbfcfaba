// Umbrella header for the Xlib + XFixes system library (and the XCB connection under Xlib, for the property
// reads that skip Xlib's copy: see XDisplay.getProperty). Nothing but includes lives here; C that
// Swift cannot express goes to CX11Shims.
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>
#include <X11/XKBlib.h>
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <xcb/xproto.h>
