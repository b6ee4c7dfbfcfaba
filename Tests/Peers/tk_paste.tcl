# A Tk 8.6 application reading CLIPBOARD as a Tk program does: `clipboard get`, written to standard output in UTF-8. Exit 0 with the text; exit 3 with Tk's error on stderr (Tk fails a
# reply larger than one property read, MAX_PROP_WORDS in unix/tkUnixSelect.c, with "selection property too large").
#   wish8.6 tk_paste.tcl
wm withdraw .
# UTF8_STRING first, then Tk's default (STRING), as Python's tkinter does on X11 (clipboard_get in tkinter/__init__.py).
if {[catch {clipboard get -type UTF8_STRING} text] && [catch {clipboard get} text]} {
    puts stderr "tk: $text"
    exit 3
}
fconfigure stdout -translation lf -encoding utf-8
puts -nonewline $text
flush stdout
exit 0
