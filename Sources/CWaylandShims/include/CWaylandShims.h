// The one thin layer between ClipBridge and a Wayland compositor's clipboard: libwayland-client (loaded on first
// use, like the image codecs: a process that never talks to Wayland maps none of it) and the wlr data-control
// protocol, whose client code wayland-scanner generated into generated/ (see generated/README.md). Everything
// above this header is Swift values: this layer keeps the protocol objects and hands up what they say.
#ifndef CWAYLAND_SHIMS_H
#define CWAYLAND_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// A connection to a compositor, with the seat's data-control device bound.
typedef struct cw_client cw_client;

/// Result codes.
enum {
    CW_OK = 0,
    /// libwayland-client cannot be loaded.
    CW_UNAVAILABLE = 1,
    /// The compositor cannot be reached (no socket, refused).
    CW_NO_COMPOSITOR = 2,
    /// The compositor offers no data-control protocol (GNOME's Mutter has none), or no seat.
    CW_NO_PROTOCOL = 3,
    /// The connection failed (the compositor went away, or a protocol error).
    CW_CONNECTION_LOST = 4,
    /// The wait ended at its deadline.
    CW_TIMED_OUT = 5,
};

/// Which selection.
enum {
    CW_CLIPBOARD = 0,
    CW_PRIMARY = 1,
};

/// Connects to `display` (a name such as `wayland-1`, an absolute socket path, or NULL for `$WAYLAND_DISPLAY`),
/// binds the first seat's data-control device, and waits (at most `timeout_ms`) until the compositor has told the
/// current selections. NULL with `*code` and a message in `message` when it cannot.
cw_client *cw_connect(const char *display, int timeout_ms, int *code, char *message, size_t message_size);

/// Closes the connection.
void cw_disconnect(cw_client *client);

/// Whether the compositor's data-control offers the primary selection (version 2 and later).
int cw_has_primary(cw_client *client);

/// How many MIME types the current offer of `selection` has (0: the selection is empty), and type `index`.
size_t cw_offer_type_count(cw_client *client, int selection);
const char *cw_offer_type(cw_client *client, int selection, size_t index);

/// Asks the owner of `selection` to write its `mime_type` into `fd` (the write end of a pipe, which this call
/// does not close) and sends the request. CW_OK, or CW_NO_PROTOCOL when the selection is empty.
int cw_receive(cw_client *client, int selection, const char *mime_type, int fd);

/// Reads and dispatches the compositor's events, waiting at most `timeout_ms` for some (0: only what is there).
int cw_dispatch(cw_client *client, int timeout_ms);

/// The connection's file descriptor, for a caller's own poll.
int cw_fd(cw_client *client);

#endif
