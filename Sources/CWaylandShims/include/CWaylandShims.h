// The one thin layer between ClipBridge and a Wayland compositor's clipboard: libwayland-client (loaded on first
// use, like the image codecs: a process that never talks to Wayland maps none of it) and a data-control protocol —
// ext-data-control-v1 where the compositor offers it, else wlr-data-control-unstable-v1 — whose client code
// wayland-scanner generated into generated/ (see generated/README.md). Everything
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
    /// The compositor offers neither data-control protocol (GNOME's Mutter has none), or no seat.
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

/// Whether the compositor's data-control offers the primary selection (ext from version 1, wlr from version 2).
int cw_has_primary(cw_client *client);

/// The data-control manager interface the connection speaks: "ext_data_control_manager_v1" or
/// "zwlr_data_control_manager_v1" (static storage).
const char *cw_protocol(cw_client *client);

/// How many MIME types the current offer of `selection` has (0: the selection is empty), and type `index`.
size_t cw_offer_type_count(cw_client *client, int selection);
const char *cw_offer_type(cw_client *client, int selection, size_t index);

/// Asks the owner of `selection` to write its `mime_type` into `fd` (the write end of a pipe, which this call
/// does not close) and sends the request. CW_OK, or CW_NO_PROTOCOL when the selection is empty.
int cw_receive(cw_client *client, int selection, const char *mime_type, int fd);

/// Reading and dispatching the compositor's events in two halves, for a caller that polls the connection's
/// descriptor together with its own: dispatch what is queued, flush, and announce a read (CW_OK, or CW_CONNECTION_LOST); then, after the caller's poll, exactly
/// one `cw_finish_poll` reads the events (`readable`: the descriptor was ready) and dispatches them.
int cw_prepare_poll(cw_client *client);
int cw_finish_poll(cw_client *client, int readable);

/// The connection's file descriptor, for a caller's own poll.
int cw_fd(cw_client *client);


// MARK: Owning a selection

/// What the compositor told, queued for the caller by `cw_dispatch` (see `cw_next_event`).
enum {
    /// The offer of `selection` changed (read it with `cw_offer_type_count`).
    CW_EVENT_SELECTION = 1,
    /// A requestor asks our source `source` for `mime_type`, to be written into `fd`, which the caller then owns.
    CW_EVENT_SEND = 2,
    /// Our source `source` no longer holds `selection` (replaced by another); it is destroyed.
    CW_EVENT_CANCELLED = 3,
};

typedef struct {
    int kind;
    int selection;
    uint64_t source;
    /// CW_EVENT_SEND: the descriptor to write to (-1 otherwise).
    int fd;
    /// CW_EVENT_SEND: the type asked (freed by `cw_event_release`).
    char *mime_type;
    /// CW_EVENT_SELECTION: the new offer's MIME types as it announced them, and whether it is a source of ours coming
    /// back — taken when the event is queued, since the offer may be replaced before the caller takes the event
    /// (several changes in one dispatch). Freed by `cw_event_release`; none for an empty selection.
    char **types;
    size_t type_count;
    int own;
} cw_event;

/// Takes the oldest queued event: 1, or 0 when there is none.
int cw_next_event(cw_client *client, cw_event *event);

/// Frees an event's type and closes its descriptor if the caller has not taken it (set `fd` to -1 to keep it).
void cw_event_release(cw_event *event);

/// Sets `selection` to a new source of ours offering `types` (in order; as what is taken from other clients: each
/// once, the first 4,096, none longer than 1,024 bytes; and only as many as 64 KiB of messages hold, which
/// every data-control client is told at once); its id, or 0 when it cannot (the primary selection without it, see
/// `cw_has_primary`, the compositor not reading within 5 s, or the connection failed).
uint64_t cw_set_selection(cw_client *client, int selection, const char *const *types, size_t count);

/// Whether our source `id` (0: any of ours) still holds `selection`.
int cw_holds_selection(cw_client *client, int selection, uint64_t id);

/// Clears `selection` if a source of ours holds it, or whoever holds it when `whoever_holds` is non-zero (data-control's
/// set_selection with no source: the selection is then empty for every client).
void cw_clear_selection(cw_client *client, int selection, int whoever_holds);

/// Sends a keep-alive round trip unless one is out already (1: sent, 0: not). libwayland-server before 1.23 does not
/// drop a client whose socket it could not write to (an offer of thousands of types fills it) until that client next
/// sends a request; until then every event for it is lost. A client that sends nothing when idle would never learn;
/// this request makes the compositor act on it, and the hang-up then shows on the socket. The flush is the caller's
/// next poll preparation.
int cw_ping(cw_client *client);

/// A round trip: returns once the compositor has handled every request sent before it (CW_OK), or CW_TIMED_OUT after
/// `timeout_ms`, or CW_CONNECTION_LOST.
int cw_sync(cw_client *client, int timeout_ms);

#endif
