// CX11Shims: the little C that Swift cannot or should not write around Xlib.
#ifndef CX11SHIMS_H
#define CX11SHIMS_H
#include <X11/Xlib.h>
#endif
