// CX11Shims: the little C that Swift cannot or should not write around Xlib.
//
// Why each piece exists:
// - Xlib's error handlers are process-global C function pointers whose defaults call exit(3). The
//   trampolines below route errors of Displays adopted by X11Selection into a per-Display queue (drained
//   by Swift on the Display's own thread) and forward errors of every other Display to the handler that
//   was installed before us, so a host that also uses Xlib elsewhere keeps its own behaviour.
// - A dropped connection runs _XIOError, which calls the global IO error handler and then the
//   per-Display IO error exit handler (libX11 >= 1.7); both defaults call exit(3). Both are replaced for
//   adopted Displays: they only mark the Display dead and return, which libX11 1.8 supports (the
//   in-flight call unwinds and returns a failure status; later calls on the Display are no-ops).
// - Glibc's Swift overlay does not vend <sys/eventfd.h>; the event loop needs eventfd(2) for wake-ups.
// - Nor <sys/epoll.h>, whose `struct epoll_event` is packed on x86-64 (awkward from Swift). The loop sleeps in
//   epoll rather than poll(2) because epoll's interest set can be changed by another thread while the loop
//   sleeps: a caller that borrows the loop's role (X11EventLoop.lend) mutes the X socket in the loop's set
//   instead of waking the loop.
#ifndef CX11SHIMS_H
#define CX11SHIMS_H

#include <sys/eventfd.h>
#include <poll.h>

// Forward declaration only: Xlib's declarations must come from the CX11 module, not from this one.
struct _XDisplay;
typedef struct _XDisplay CX11Shims_Display;

/// One X protocol error, copied out of Xlib's XErrorEvent when it was reported.
typedef struct CX11Shims_Error {
    unsigned long serial;
    unsigned long resourceID;
    unsigned char errorCode;
    unsigned char requestCode;
    unsigned char minorCode;
} CX11Shims_Error;

/// Installs the process-wide error and IO error trampolines (idempotent, thread-safe).
void CX11Shims_installHandlers(void);

/// Registers `display` as owned by X11Selection: its protocol errors are queued instead of handed to the
/// previous handler, and an IO error marks it dead instead of exiting. Also replaces its IO error exit
/// handler. Returns 0 on success, -1 when out of memory.
int CX11Shims_adoptDisplay(CX11Shims_Display *display);

/// Forgets `display` (call after XCloseDisplay). Errors for it then go to the previous handler again.
void CX11Shims_releaseDisplay(CX11Shims_Display *display);

/// 1 once the connection of an adopted display broke (IO error), else 0.
int CX11Shims_isDisplayDead(CX11Shims_Display *display);

/// Pops the oldest queued protocol error of an adopted display into `out`. Returns 1 if one was popped.
int CX11Shims_takeError(CX11Shims_Display *display, CX11Shims_Error *out);

/// Number of protocol errors dropped because the per-display queue was full.
unsigned long CX11Shims_droppedErrorCount(CX11Shims_Display *display);

/// Names the calling thread (pthread_setname_np is a GNU extension the Glibc module does not vend).
void CX11Shims_setCurrentThreadName(const char *name);

/// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
int CX11Shims_eventfd(void);

/// Adds 1 to an eventfd counter; returns 0 on success.
int CX11Shims_eventfdSignal(int fd);

/// Resets an eventfd counter to zero (non-blocking read).
void CX11Shims_eventfdDrain(int fd);

/// `epoll_create1(EPOLL_CLOEXEC)`.
int CX11Shims_epollCreate(void);

/// Adds `fd` to the epoll set `epfd`, watched for input (level-triggered). Returns 0 on success.
int CX11Shims_epollAdd(int epfd, int fd);

/// Watches `fd` (already in the set) for input again (`enabled` != 0) or mutes it (0: only errors and
/// hang-ups are still reported). Returns 0 on success.
int CX11Shims_epollSetInput(int epfd, int fd, int enabled);

/// Removes `fd` from the set. Returns 0 on success.
int CX11Shims_epollRemove(int epfd, int fd);

/// Waits up to `timeoutMilliseconds` (-1: forever) for the set `epfd`. Sets `*wakeReady` when `wakeFD` is
/// ready and `*otherReady` when any other descriptor is (input, error or hang-up). Returns epoll_wait's
/// result (-1 with errno on failure, EINTR included).
int CX11Shims_epollWait(int epfd, int wakeFD, int timeoutMilliseconds, int *wakeReady, int *otherReady);

#endif
