// ClipBridge: Transferable values over the X11 clipboard.
