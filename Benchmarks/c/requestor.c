/* ClipBridge benchmarks: the C ceiling for a requestor.
 *
 * Reads one target of a selection, following INCR (ICCCM 2.7.2), and writes the bytes to a file (or drops
 * them). With -r it reads REPEAT times in a row and reports the latency of each read.
 *
 *   requestor [-s SELECTION] [-t TARGET] [-o FILE] [-r REPEAT] [-R ROUNDTRIPS]
 *
 * Prints "RESULT read bytes=... seconds=... mib_per_s=..." (one read) or a latency RESULT line (-r). The
 * timing covers the transfer only (from XConvertSelection to the last byte written), not process start-up.
 * With -R it instead times ROUNDTRIPS bare XGetSelectionOwner calls: the floor any selection read pays.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <fcntl.h>
#include <unistd.h>

#include "common.h"

static Display *display;
static Window window;
static Atom selection, target, property, incr_atom;
static int output = -1;

static void write_all(const unsigned char *bytes, size_t count) {
    if (output < 0) return;
    while (count > 0) {
        ssize_t written = write(output, bytes, count);
        if (written <= 0) die("write failed");
        bytes += written;
        count -= (size_t)written;
    }
}

/* Takes the whole property (deleting it) and writes it out; returns its size in bytes. */
static size_t take_property(Atom *type) {
    Atom actual;
    int format;
    unsigned long items, remaining;
    unsigned char *value = NULL;
    if (XGetWindowProperty(display, window, property, 0, 0x1fffffff, True, AnyPropertyType, &actual, &format,
                           &items, &remaining, &value) != Success)
        die("cannot read the property");
    size_t bytes = items * (format == 32 ? sizeof(long) : (size_t)format / 8);
    if (actual != incr_atom) write_all(value, bytes);
    if (value) XFree(value);
    *type = actual;
    return bytes;
}

/* One complete read; returns the number of bytes received. */
static size_t read_once(void) {
    XEvent event;
    XConvertSelection(display, selection, target, property, window, CurrentTime);
    do XNextEvent(display, &event); while (event.type != SelectionNotify);
    if (event.xselection.property == None) die("the owner refused the target (or there is no owner)");
    Atom type;
    size_t total = take_property(&type);  /* deleting INCR starts the transfer */
    if (type != incr_atom) return total;
    total = 0;
    for (;;) {
        do XNextEvent(display, &event);
        while (event.type != PropertyNotify || event.xproperty.atom != property ||
               event.xproperty.state != PropertyNewValue);
        size_t count = take_property(&type);
        if (count == 0) return total;
        total += count;
    }
}

int main(int argc, char **argv) {
    const char *selection_name = "CLIPBOARD", *target_name = "application/octet-stream", *file = NULL;
    int repeat = 0, roundtrips = 0, option;
    while ((option = getopt(argc, argv, "s:t:o:r:R:")) != -1) {
        switch (option) {
        case 's': selection_name = optarg; break;
        case 't': target_name = optarg; break;
        case 'o': file = optarg; break;
        case 'r': repeat = atoi(optarg); break;
        case 'R': roundtrips = atoi(optarg); break;
        default: die("usage: requestor [-s SELECTION] [-t TARGET] [-o FILE] [-r REPEAT] [-R ROUNDTRIPS]");
        }
    }
    alarm(600);
    if (file && (output = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) die("cannot create %s", file);
    if (!(display = XOpenDisplay(NULL))) die("cannot open display %s", XDisplayName(NULL));
    selection = XInternAtom(display, selection_name, False);
    target = XInternAtom(display, target_name, False);
    property = XInternAtom(display, "CLIPBRIDGE_BENCH", False);
    incr_atom = XInternAtom(display, "INCR", False);
    window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    XSelectInput(display, window, PropertyChangeMask);  /* before any request: no INCR chunk can be missed */

    if (roundtrips > 0) {
        int64_t *samples = calloc((size_t)roundtrips, sizeof *samples);
        for (int i = 0; i < roundtrips; i++) {
            int64_t start = now_ns();
            XGetSelectionOwner(display, selection);
            samples[i] = now_ns() - start;
        }
        print_latency("roundtrip", samples, roundtrips);
    } else if (repeat > 0) {
        int64_t *samples = calloc((size_t)repeat, sizeof *samples);
        size_t bytes = 0;
        int64_t cpu_start = cpu_ns();
        for (int i = 0; i < repeat; i++) {
            int64_t start = now_ns();
            bytes = read_once();
            samples[i] = now_ns() - start;
        }
        double cpu_per_read_us = (cpu_ns() - cpu_start) / 1e3 / repeat;
        printf("RESULT bytes=%zu\n", bytes);
        print_latency("latency", samples, repeat);
        printf("RESULT cpu per_read_us=%.1f\n", cpu_per_read_us);
    } else {
        int64_t start = now_ns();
        size_t bytes = read_once();
        double seconds = (now_ns() - start) / 1e9;
        printf("RESULT read bytes=%zu seconds=%.6f mib_per_s=%.1f\n", bytes, seconds, bytes / 1048576.0 / seconds);
    }
    XCloseDisplay(display);
    return 0;
}
