/* ClipBridge benchmarks: the trigger for owner-change notification latency.
 *
 * Creates COUNT windows, then claims the selection with each in turn, INTERVAL microseconds apart, and
 * prints "CLAIM <window> <CLOCK_MONOTONIC ns>" for each, the time taken just before the request is flushed.
 * A watcher (watcher.c, or `clipbridge-bench watch-latency`) prints the window and time of each change it
 * sees; joining the two on the window id gives one latency per claim.
 *
 *   claimer [-s SELECTION] [-n COUNT] [-i INTERVAL_US]
 */
#include <X11/Xlib.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv) {
    const char *selection_name = "CLIPBOARD";
    int count = 200, interval = 3000, option;
    while ((option = getopt(argc, argv, "s:n:i:")) != -1) {
        switch (option) {
        case 's': selection_name = optarg; break;
        case 'n': count = atoi(optarg); break;
        case 'i': interval = atoi(optarg); break;
        default: die("usage: claimer [-s SELECTION] [-n COUNT] [-i INTERVAL_US]");
        }
    }
    alarm(120);
    Display *display = XOpenDisplay(NULL);
    if (!display) die("cannot open display %s", XDisplayName(NULL));
    Atom selection = XInternAtom(display, selection_name, False);
    Window *windows = calloc((size_t)count, sizeof *windows);
    for (int i = 0; i < count; i++)
        windows[i] = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    XSync(display, False);
    int64_t *times = calloc((size_t)count, sizeof *times);
    for (int i = 0; i < count; i++) {
        XSetSelectionOwner(display, selection, windows[i], CurrentTime);
        times[i] = now_ns();
        XFlush(display);
        usleep((useconds_t)interval);
    }
    XSync(display, False);
    for (int i = 0; i < count; i++) printf("CLAIM %lu %lld\n", windows[i], (long long)times[i]);
    XCloseDisplay(display);
    return 0;
}
