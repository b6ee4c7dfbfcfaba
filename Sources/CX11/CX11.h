// Umbrella header for the Xlib + XFixes system library. Nothing but includes lives here; C that
// Swift cannot express goes to CX11Shims.
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>
#include <X11/XKBlib.h>
