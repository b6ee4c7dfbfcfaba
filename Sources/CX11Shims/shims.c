// See CX11Shims.h for why each function exists.
#define _GNU_SOURCE
#include "CX11Shims.h"

#include <X11/Xlib.h>

#include <pthread.h>
#include <sys/epoll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Format-32 property data is an array of C long in Xlib (X11Selection converts it to 32-bit values).
_Static_assert(sizeof(Atom) == sizeof(long), "Xlib format-32 data is handed over as C long");
_Static_assert(sizeof(Window) == sizeof(unsigned long), "X11Window wraps an unsigned long XID");

enum { kErrorQueueCapacity = 256 };

typedef struct DisplayState {
    Display *display;
    volatile int dead;
    unsigned long dropped;
    unsigned head;   // next to pop
    unsigned count;  // queued
    CX11Shims_Error queue[kErrorQueueCapacity];
    struct DisplayState *next;
} DisplayState;

static pthread_mutex_t registryLock = PTHREAD_MUTEX_INITIALIZER;
static DisplayState *registry = NULL;
static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static XErrorHandler previousErrorHandler = NULL;
static XIOErrorHandler previousIOErrorHandler = NULL;

// Caller holds registryLock.
static DisplayState *findState(Display *display) {
    for (DisplayState *state = registry; state != NULL; state = state->next) {
        if (state->display == display) {
            return state;
        }
    }
    return NULL;
}

static int errorTrampoline(Display *display, XErrorEvent *event) {
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    if (state != NULL) {
        if (state->count < kErrorQueueCapacity) {
            unsigned slot = (state->head + state->count) % kErrorQueueCapacity;
            state->queue[slot].serial = event->serial;
            state->queue[slot].resourceID = event->resourceid;
            state->queue[slot].errorCode = event->error_code;
            state->queue[slot].requestCode = event->request_code;
            state->queue[slot].minorCode = event->minor_code;
            state->count += 1;
        } else {
            state->dropped += 1;
        }
        pthread_mutex_unlock(&registryLock);
        return 0;
    }
    XErrorHandler previous = previousErrorHandler;
    pthread_mutex_unlock(&registryLock);
    // Not one of ours: keep the host's behaviour (which may be Xlib's default, printing and exiting).
    return previous != NULL ? previous(display, event) : 0;
}

static int ioErrorTrampoline(Display *display) {
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    if (state != NULL) {
        state->dead = 1;
        pthread_mutex_unlock(&registryLock);
        return 0;  // _XIOError goes on to the per-display exit handler below.
    }
    XIOErrorHandler previous = previousIOErrorHandler;
    pthread_mutex_unlock(&registryLock);
    return previous != NULL ? previous(display) : 0;
}

// Replaces _XDefaultIOErrorExit (which calls exit(3)) for adopted displays. Returning is supported by
// libX11 >= 1.7: _XIOError returns to the Xlib call in progress, which fails, and the Display refuses
// further I/O (XlibDisplayIOError is set).
static void ioErrorExitTrampoline(Display *display, void *userData) {
    (void)userData;
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    if (state != NULL) {
        state->dead = 1;
    }
    pthread_mutex_unlock(&registryLock);
}

static void installHandlersOnce(void) {
    XErrorHandler error = XSetErrorHandler(errorTrampoline);
    XIOErrorHandler ioError = XSetIOErrorHandler(ioErrorTrampoline);
    pthread_mutex_lock(&registryLock);
    previousErrorHandler = error == errorTrampoline ? NULL : error;
    previousIOErrorHandler = ioError == ioErrorTrampoline ? NULL : ioError;
    pthread_mutex_unlock(&registryLock);
}

void CX11Shims_installHandlers(void) {
    pthread_once(&installOnce, installHandlersOnce);
}

int CX11Shims_adoptDisplay(Display *display) {
    CX11Shims_installHandlers();
    DisplayState *state = calloc(1, sizeof(DisplayState));
    if (state == NULL) {
        return -1;
    }
    state->display = display;
    pthread_mutex_lock(&registryLock);
    state->next = registry;
    registry = state;
    pthread_mutex_unlock(&registryLock);
    XSetIOErrorExitHandler(display, ioErrorExitTrampoline, NULL);
    return 0;
}

void CX11Shims_releaseDisplay(Display *display) {
    pthread_mutex_lock(&registryLock);
    DisplayState **link = &registry;
    while (*link != NULL) {
        if ((*link)->display == display) {
            DisplayState *gone = *link;
            *link = gone->next;
            free(gone);
            break;
        }
        link = &(*link)->next;
    }
    pthread_mutex_unlock(&registryLock);
}

int CX11Shims_isDisplayDead(Display *display) {
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    int dead = state != NULL ? state->dead : 0;
    pthread_mutex_unlock(&registryLock);
    return dead;
}

int CX11Shims_takeError(Display *display, CX11Shims_Error *out) {
    int taken = 0;
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    if (state != NULL && state->count > 0) {
        *out = state->queue[state->head];
        state->head = (state->head + 1) % kErrorQueueCapacity;
        state->count -= 1;
        taken = 1;
    }
    pthread_mutex_unlock(&registryLock);
    return taken;
}

unsigned long CX11Shims_droppedErrorCount(Display *display) {
    pthread_mutex_lock(&registryLock);
    DisplayState *state = findState(display);
    unsigned long dropped = state != NULL ? state->dropped : 0;
    pthread_mutex_unlock(&registryLock);
    return dropped;
}

void CX11Shims_setCurrentThreadName(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    pthread_setname_np(pthread_self(), truncated);
}

int CX11Shims_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int CX11Shims_eventfdSignal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof one) == sizeof one ? 0 : -1;
}

void CX11Shims_eventfdDrain(int fd) {
    uint64_t value;
    while (read(fd, &value, sizeof value) == sizeof value) {
    }
}

int CX11Shims_epollCreate(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int CX11Shims_epollAdd(int epfd, int fd) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int CX11Shims_epollSetInput(int epfd, int fd, int enabled) {
    struct epoll_event event = {.events = enabled ? EPOLLIN : 0, .data.fd = fd};
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

int CX11Shims_epollRemove(int epfd, int fd) {
    struct epoll_event unused = {0};  // kernels before 2.6.9 required a non-null pointer
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &unused);
}

int CX11Shims_epollWait(int epfd, int wakeFD, int timeoutMilliseconds, int *wakeReady, int *otherReady) {
    struct epoll_event events[4];
    *wakeReady = 0;
    *otherReady = 0;
    int count = epoll_wait(epfd, events, 4, timeoutMilliseconds);
    for (int index = 0; index < count; index++) {
        if (events[index].data.fd == wakeFD) {
            *wakeReady = 1;
        } else {
            *otherReady = 1;
        }
    }
    return count;
}
