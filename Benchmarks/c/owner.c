/* ClipBridge benchmarks: the C ceiling for an owner.
 *
 * Owns a selection and serves one target (plus TARGETS) from memory. Above the largest property one request
 * can carry it uses INCR (ICCCM 2.7.2) with 128 KiB chunks, the size measured fastest on these machines.
 * Any number of requestors are served at once, each transfer keyed by (requestor window, property).
 *
 *   owner [-s SELECTION] [-t TARGET] (-f FILE | -b BYTES) [-n TRANSFERS] [-c CHUNK]
 *
 * Prints READY once it owns the selection; exits after TRANSFERS completed content transfers (0 = serve
 * until the selection is lost), or after 600 s whatever happens.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

enum { MAX_TRANSFERS = 64 };

typedef struct {
    Window requestor;
    Atom property;
    size_t offset;  /* next byte to send */
    int active;
} Transfer;

static Display *display;
static Atom selection, target, targets_atom, incr_atom;
static const unsigned char *data;
static size_t size, chunk = 128 * 1024, max_property;
static Transfer transfers[MAX_TRANSFERS];
static long completed, wanted;

/* Answers one SelectionRequest: TARGETS, the target (whole or INCR), or a refusal (property None). */
static void answer(const XSelectionRequestEvent *request) {
    XSelectionEvent reply = {
        .type = SelectionNotify, .display = request->display, .requestor = request->requestor,
        .selection = request->selection, .target = request->target, .time = request->time,
        .property = request->property != None ? request->property : request->target, /* ICCCM 2.2: obsolete clients */
    };
    if (request->target == targets_atom) {
        Atom offered[] = {targets_atom, target};
        XChangeProperty(display, request->requestor, reply.property, XA_ATOM, 32, PropModeReplace,
                        (unsigned char *)offered, 2);
    } else if (request->target == target && size <= max_property) {
        XChangeProperty(display, request->requestor, reply.property, target, 8, PropModeReplace, data, (int)size);
        completed++;
    } else if (request->target == target) {
        int slot = -1;
        for (int i = 0; i < MAX_TRANSFERS && slot < 0; i++)
            if (!transfers[i].active) slot = i;
        if (slot < 0) {
            reply.property = None;  /* too many at once: refuse rather than block anyone */
        } else {
            transfers[slot] = (Transfer){request->requestor, reply.property, 0, 1};
            /* Watch the requestor's deletions before announcing INCR, so none is missed. */
            XSelectInput(display, request->requestor, PropertyChangeMask);
            long total = (long)size;
            XChangeProperty(display, request->requestor, reply.property, incr_atom, 32, PropModeReplace,
                            (unsigned char *)&total, 1);
        }
    } else {
        reply.property = None;
    }
    XSendEvent(display, request->requestor, False, NoEventMask, (XEvent *)&reply);
}

/* The requestor deleted the property: send the next chunk, or the zero-length end marker. */
static void advance(const XPropertyEvent *event) {
    if (event->state != PropertyDelete) return;
    for (int i = 0; i < MAX_TRANSFERS; i++) {
        Transfer *transfer = &transfers[i];
        if (!transfer->active || transfer->requestor != event->window || transfer->property != event->atom) continue;
        size_t count = size - transfer->offset < chunk ? size - transfer->offset : chunk;
        XChangeProperty(display, transfer->requestor, transfer->property, target, 8, PropModeReplace,
                        data + transfer->offset, (int)count);
        transfer->offset += count;
        if (count == 0) {
            transfer->active = 0;
            completed++;
        }
        return;
    }
}

int main(int argc, char **argv) {
    const char *selection_name = "CLIPBOARD", *target_name = "application/octet-stream", *file = NULL;
    long generated = -1;
    int option;
    while ((option = getopt(argc, argv, "s:t:f:b:n:c:")) != -1) {
        switch (option) {
        case 's': selection_name = optarg; break;
        case 't': target_name = optarg; break;
        case 'f': file = optarg; break;
        case 'b': generated = atol(optarg); break;
        case 'n': wanted = atol(optarg); break;
        case 'c': chunk = (size_t)atol(optarg); break;
        default: die("usage: owner [-s SELECTION] [-t TARGET] (-f FILE | -b BYTES) [-n TRANSFERS] [-c CHUNK]");
        }
    }
    alarm(600);
    if (file) {
        int fd = open(file, O_RDONLY);
        struct stat info;
        if (fd < 0 || fstat(fd, &info) != 0) die("cannot open %s", file);
        size = (size_t)info.st_size;
        data = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : (unsigned char *)"";
        if (data == MAP_FAILED) die("cannot map %s", file);
    } else if (generated >= 0) {
        unsigned char *bytes = malloc((size_t)generated + 1);
        for (long i = 0; i < generated; i++) bytes[i] = (unsigned char)(i * 131 + 7);
        data = bytes;
        size = (size_t)generated;
    } else {
        die("give -f FILE or -b BYTES");
    }

    if (!(display = XOpenDisplay(NULL))) die("cannot open display %s", XDisplayName(NULL));
    selection = XInternAtom(display, selection_name, False);
    target = XInternAtom(display, target_name, False);
    targets_atom = XInternAtom(display, "TARGETS", False);
    incr_atom = XInternAtom(display, "INCR", False);
    /* The largest single property: the (extended) request size less the ChangeProperty header. */
    long units = XExtendedMaxRequestSize(display) ? XExtendedMaxRequestSize(display) : XMaxRequestSize(display);
    max_property = (size_t)units * 4 - 100;

    Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    /* A real timestamp for the claim (ICCCM 2.1): a zero-length append to our own window. */
    XSelectInput(display, window, PropertyChangeMask);
    XChangeProperty(display, window, XA_WM_NAME, XA_STRING, 8, PropModeAppend, NULL, 0);
    XEvent event;
    do XNextEvent(display, &event); while (event.type != PropertyNotify);
    XSetSelectionOwner(display, selection, window, event.xproperty.time);
    if (XGetSelectionOwner(display, selection) != window) die("could not own %s", selection_name);
    printf("READY\n");
    fflush(stdout);

    while (wanted == 0 || completed < wanted) {
        XNextEvent(display, &event);
        if (event.type == SelectionRequest) answer(&event.xselectionrequest);
        else if (event.type == PropertyNotify) advance(&event.xproperty);
        else if (event.type == SelectionClear) break;
    }
    XCloseDisplay(display);
    return 0;
}
