// X11SelectionTests
