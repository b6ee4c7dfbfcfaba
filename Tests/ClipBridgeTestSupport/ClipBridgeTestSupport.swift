// Test support: the Xvfb fixture and runners for independent peers (xclip, xsel, GTK, Qt).
