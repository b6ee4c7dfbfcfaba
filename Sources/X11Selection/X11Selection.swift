// X11Selection: an ICCCM selection owner, requestor and owner-change watcher over Xlib + XFixes.
