/* ClipBridge benchmarks: the C ceiling for owner-change notification (XFixes).
 *
 * Asks for XFixesSetSelectionOwnerNotify on the selection, prints READY, then for COUNT changes prints
 * "CHANGE <owner window> <CLOCK_MONOTONIC ns when the event was received>".
 *
 *   watcher [-s SELECTION] [-n COUNT]
 */
#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv) {
    const char *selection_name = "CLIPBOARD";
    int count = 200, option;
    while ((option = getopt(argc, argv, "s:n:")) != -1) {
        switch (option) {
        case 's': selection_name = optarg; break;
        case 'n': count = atoi(optarg); break;
        default: die("usage: watcher [-s SELECTION] [-n COUNT]");
        }
    }
    alarm(120);
    Display *display = XOpenDisplay(NULL);
    if (!display) die("cannot open display %s", XDisplayName(NULL));
    int event_base, error_base;
    if (!XFixesQueryExtension(display, &event_base, &error_base)) die("no XFixes");
    Atom selection = XInternAtom(display, selection_name, False);
    XFixesSelectSelectionInput(display, DefaultRootWindow(display), selection, XFixesSetSelectionOwnerNotifyMask);
    XSync(display, False);
    printf("READY\n");
    fflush(stdout);
    unsigned long *owners = calloc((size_t)count, sizeof *owners);
    int64_t *times = calloc((size_t)count, sizeof *times);
    for (int seen = 0; seen < count;) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type != event_base + XFixesSelectionNotify) continue;
        times[seen] = now_ns();
        owners[seen++] = ((XFixesSelectionNotifyEvent *)&event)->owner;
    }
    for (int i = 0; i < count; i++) printf("CHANGE %lu %lld\n", owners[i], (long long)times[i]);
    XCloseDisplay(display);
    return 0;
}
