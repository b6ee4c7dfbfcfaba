// A compositor's clipboard through the wlr data-control protocol (wlr-protocols'
// unstable/wlr-data-control-unstable-v1.xml): see CWaylandShims.h.
//
// libwayland-client is loaded on first use. Its functions are called through pointers: the #defines below, placed
// before its headers, turn each declaration into the pointer this file fills with dlsym, and every call — ours and
// those of the headers' and the generated code's inline functions — into a call through it. The protocol
// interfaces the generated code refers to (wl_seat_interface …) are generated too (generated/wayland-core-protocol.c,
// hidden), so nothing here is linked against libwayland-client.
#include "CWaylandShims.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CW_FUNCTIONS(X)                                                                                               \
    X(wl_display_connect) X(wl_display_disconnect) X(wl_display_get_fd) X(wl_display_flush)                          \
    X(wl_display_prepare_read) X(wl_display_read_events) X(wl_display_cancel_read) X(wl_display_dispatch_pending)   \
    X(wl_display_get_error) X(wl_proxy_marshal_flags) X(wl_proxy_add_listener) X(wl_proxy_get_user_data)            \
    X(wl_proxy_set_user_data) X(wl_proxy_get_version) X(wl_proxy_destroy)

#define wl_display_connect (*cw_lazy_wl_display_connect)
#define wl_display_disconnect (*cw_lazy_wl_display_disconnect)
#define wl_display_get_fd (*cw_lazy_wl_display_get_fd)
#define wl_display_flush (*cw_lazy_wl_display_flush)
#define wl_display_prepare_read (*cw_lazy_wl_display_prepare_read)
#define wl_display_read_events (*cw_lazy_wl_display_read_events)
#define wl_display_cancel_read (*cw_lazy_wl_display_cancel_read)
#define wl_display_dispatch_pending (*cw_lazy_wl_display_dispatch_pending)
#define wl_display_get_error (*cw_lazy_wl_display_get_error)
#define wl_proxy_marshal_flags (*cw_lazy_wl_proxy_marshal_flags)
#define wl_proxy_add_listener (*cw_lazy_wl_proxy_add_listener)
#define wl_proxy_get_user_data (*cw_lazy_wl_proxy_get_user_data)
#define wl_proxy_set_user_data (*cw_lazy_wl_proxy_set_user_data)
#define wl_proxy_get_version (*cw_lazy_wl_proxy_get_version)
#define wl_proxy_destroy (*cw_lazy_wl_proxy_destroy)

#include <wayland-client-core.h>
#include <wayland-client-protocol.h>
#include "generated/wlr-data-control-client.h"

// MARK: - Loading libwayland-client

typedef struct {
    const char *name;
    void **slot;
} symbol;

#define CW_SYMBOL(name) {#name, (void **)&cw_lazy_##name},
static const symbol symbols[] = {CW_FUNCTIONS(CW_SYMBOL)};

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_state;  // 0 not tried, 1 loaded, -1 failed
static char load_error[200];

static int load(void) {
    pthread_mutex_lock(&load_lock);
    if (load_state == 0) {
        void *handle = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
        load_state = 1;
        if (!handle) {
            snprintf(load_error, sizeof load_error, "cannot load libwayland-client.so.0 (Debian's libwayland-client0): %s",
                dlerror());
            load_state = -1;
        }
        for (size_t i = 0; handle && i < sizeof symbols / sizeof symbols[0]; i++) {
            void *address = dlsym(handle, symbols[i].name);
            if (!address) {
                snprintf(load_error, sizeof load_error, "libwayland-client.so.0 has no %s", symbols[i].name);
                load_state = -1;
                break;
            }
            *symbols[i].slot = address;
        }
    }
    int state = load_state;
    pthread_mutex_unlock(&load_lock);
    return state > 0;
}

// MARK: - The client

/// An offer the compositor introduced: its proxy and the MIME types it listed, in order.
typedef struct {
    struct zwlr_data_control_offer_v1 *proxy;
    char **types;
    size_t count;
    size_t capacity;
    /// Introduced while our own source held this selection: the compositor telling us our own claim.
    int own;
} offer;

/// One of our sources: the selection it was set as, and the caller's id for it.
typedef struct {
    struct zwlr_data_control_source_v1 *proxy;
    struct cw_client *client;
    int selection;
    uint64_t id;
} source;

/// The events waiting for the caller, oldest first (a ring that grows).
typedef struct {
    cw_event *items;
    size_t head, count, capacity;
} event_queue;

struct cw_client {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    uint32_t manager_name;
    uint32_t manager_version;
    struct zwlr_data_control_manager_v1 *manager;
    struct zwlr_data_control_device_v1 *device;
    /// The offers of the clipboard and the primary selection (NULL: empty).
    offer *selections[2];
    /// Our source that holds each selection (NULL: none of ours, or it was cancelled).
    source *sources[2];
    uint64_t last_source_id;
    event_queue events;
    int finished;
    int synced;
};

static void push_event(cw_client *client, cw_event event) {
    event_queue *q = &client->events;
    if (q->count == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 16;
        cw_event *grown = malloc(capacity * sizeof *grown);
        if (!grown) {
            // Out of memory: a send request is answered by closing its descriptor (the requestor reads nothing).
            if (event.fd >= 0) close(event.fd);
            free(event.mime_type);
            return;
        }
        for (size_t i = 0; i < q->count; i++) grown[i] = q->items[(q->head + i) % q->capacity];
        free(q->items);
        q->items = grown;
        q->head = 0;
        q->capacity = capacity;
    }
    q->items[(q->head + q->count) % q->capacity] = event;
    q->count++;
}

/// The most MIME types one offer may list, and the longest type kept: an owner is another client, untrusted.
enum { MAX_TYPES = 4096, MAX_TYPE_BYTES = 1024 };

static void offer_free(offer *o) {
    if (!o) return;
    for (size_t i = 0; i < o->count; i++) free(o->types[i]);
    free(o->types);
    if (o->proxy) zwlr_data_control_offer_v1_destroy(o->proxy);
    free(o);
}

static void offer_listed(void *data, struct zwlr_data_control_offer_v1 *proxy, const char *mime_type) {
    (void)proxy;
    offer *o = data;
    if (!mime_type || o->count >= MAX_TYPES || strlen(mime_type) > MAX_TYPE_BYTES) return;
    for (size_t i = 0; i < o->count; i++)
        if (strcmp(o->types[i], mime_type) == 0) return;  // listed twice: once is enough
    if (o->count == o->capacity) {
        size_t capacity = o->capacity ? o->capacity * 2 : 8;
        char **grown = realloc(o->types, capacity * sizeof *grown);
        if (!grown) return;
        o->types = grown;
        o->capacity = capacity;
    }
    char *copy = strdup(mime_type);
    if (copy) o->types[o->count++] = copy;
}

static const struct zwlr_data_control_offer_v1_listener offer_listener = {.offer = offer_listed};

static void device_offered(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *id) {
    (void)data;
    (void)device;
    offer *o = calloc(1, sizeof *o);
    if (!o) {
        zwlr_data_control_offer_v1_destroy(id);
        return;
    }
    o->proxy = id;
    zwlr_data_control_offer_v1_add_listener(id, &offer_listener, o);
}

static void set_selection(cw_client *client, int which, struct zwlr_data_control_offer_v1 *id) {
    offer *old = client->selections[which];
    offer *new = id ? zwlr_data_control_offer_v1_get_user_data(id) : NULL;
    // The compositor cancels a replaced source before it announces the new selection, so a source of ours still
    // holding this selection means the offer is our own claim coming back.
    if (new) new->own = client->sources[which] != NULL;
    client->selections[which] = new;
    if (old && old != new && old != client->selections[!which]) offer_free(old);
    push_event(client, (cw_event){.kind = CW_EVENT_SELECTION, .selection = which, .fd = -1});
}

static void device_selection(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *id) {
    (void)device;
    set_selection(data, CW_CLIPBOARD, id);
}

static void device_primary(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *id) {
    (void)device;
    set_selection(data, CW_PRIMARY, id);
}

static void device_finished(void *data, struct zwlr_data_control_device_v1 *device) {
    (void)device;
    ((cw_client *)data)->finished = 1;
}

static const struct zwlr_data_control_device_v1_listener device_listener = {
    .data_offer = device_offered,
    .selection = device_selection,
    .finished = device_finished,
    .primary_selection = device_primary,
};

static void source_send(void *data, struct zwlr_data_control_source_v1 *proxy, const char *mime_type, int32_t fd) {
    (void)proxy;
    source *src = data;
    char *copy = mime_type ? strdup(mime_type) : NULL;
    if (!copy) {
        close(fd);
        return;
    }
    push_event(src->client, (cw_event){
        .kind = CW_EVENT_SEND, .selection = src->selection, .source = src->id, .fd = fd, .mime_type = copy});
}

static void source_free(source *src) {
    zwlr_data_control_source_v1_destroy(src->proxy);
    free(src);
}

static void source_cancelled(void *data, struct zwlr_data_control_source_v1 *proxy) {
    (void)proxy;
    source *src = data;
    cw_client *client = src->client;
    if (client->sources[src->selection] == src) client->sources[src->selection] = NULL;
    push_event(client, (cw_event){.kind = CW_EVENT_CANCELLED, .selection = src->selection, .source = src->id, .fd = -1});
    source_free(src);
}

static const struct zwlr_data_control_source_v1_listener source_listener = {
    .send = source_send, .cancelled = source_cancelled};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    cw_client *client = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !client->seat) {
        client->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_data_control_manager_v1_interface.name) == 0) {
        client->manager_name = name;
        client->manager_version = version;
    }
}

static void registry_removed(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {.global = registry_global, .global_remove = registry_removed};

static void synced(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    ((cw_client *)data)->synced = 1;
    wl_callback_destroy(callback);
}

static const struct wl_callback_listener sync_listener = {.done = synced};

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int cw_prepare_poll(cw_client *client) {
    struct wl_display *display = client->display;
    while (wl_display_prepare_read(display) != 0) {
        if (wl_display_dispatch_pending(display) < 0) return CW_CONNECTION_LOST;
    }
    // A full socket buffer (EAGAIN) is flushed at the next dispatch; anything else is the end of the connection.
    if (wl_display_flush(display) < 0 && errno != EAGAIN) {
        wl_display_cancel_read(display);
        return CW_CONNECTION_LOST;
    }
    return CW_OK;
}

int cw_finish_poll(cw_client *client, int readable) {
    struct wl_display *display = client->display;
    if (readable) {
        if (wl_display_read_events(display) < 0) return CW_CONNECTION_LOST;
    } else {
        wl_display_cancel_read(display);
    }
    if (wl_display_dispatch_pending(display) < 0 || wl_display_get_error(display) != 0) return CW_CONNECTION_LOST;
    if (client->finished) return CW_CONNECTION_LOST;
    return CW_OK;
}

/// Reads and dispatches the compositor's events, waiting at most `timeout_ms` for some (connecting's round trips).
static int cw_dispatch(cw_client *client, int timeout_ms) {
    int code = cw_prepare_poll(client);
    if (code != CW_OK) return code;
    struct pollfd fd = {.fd = wl_display_get_fd(client->display), .events = POLLIN};
    int ready;
    do ready = poll(&fd, 1, timeout_ms); while (ready < 0 && errno == EINTR);
    code = cw_finish_poll(client, ready > 0);
    if (code != CW_OK) return code;
    return ready > 0 ? CW_OK : CW_TIMED_OUT;
}

/// A round trip with a deadline (wl_display_roundtrip waits for ever).
static int roundtrip(cw_client *client, long long deadline) {
    client->synced = 0;
    struct wl_callback *callback = wl_display_sync(client->display);
    if (!callback) return CW_CONNECTION_LOST;
    wl_callback_add_listener(callback, &sync_listener, client);
    while (!client->synced) {
        long long left = deadline - now_ms();
        if (left <= 0) return CW_TIMED_OUT;
        int code = cw_dispatch(client, (int)left);
        if (code != CW_OK && code != CW_TIMED_OUT) return code;
    }
    return CW_OK;
}

cw_client *cw_connect(const char *name, int timeout_ms, int *code, char *message, size_t message_size) {
    if (!load()) {
        *code = CW_UNAVAILABLE;
        snprintf(message, message_size, "%s", load_error);
        return NULL;
    }
    cw_client *client = calloc(1, sizeof *client);
    if (!client) {
        *code = CW_CONNECTION_LOST;
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    long long deadline = now_ms() + timeout_ms;
    client->display = wl_display_connect(name);
    if (!client->display) {
        *code = CW_NO_COMPOSITOR;
        snprintf(message, message_size, "cannot connect to the Wayland compositor %s: %s",
            name ? name : "of WAYLAND_DISPLAY", strerror(errno));
        free(client);
        return NULL;
    }
    client->registry = wl_display_get_registry(client->display);
    wl_registry_add_listener(client->registry, &registry_listener, client);
    *code = roundtrip(client, deadline);
    if (*code == CW_OK && (!client->manager_name || !client->seat)) {
        *code = CW_NO_PROTOCOL;
        snprintf(message, message_size, "the compositor offers %s",
            client->seat ? "no data-control protocol (zwlr_data_control_manager_v1): it cannot share its clipboard"
                         : "no seat");
    }
    if (*code == CW_OK) {
        uint32_t version = client->manager_version < 2 ? client->manager_version : 2;
        client->manager = wl_registry_bind(client->registry, client->manager_name, &zwlr_data_control_manager_v1_interface,
            version);
        client->device = zwlr_data_control_manager_v1_get_data_device(client->manager, client->seat);
        zwlr_data_control_device_v1_add_listener(client->device, &device_listener, client);
        // The device tells the current selections at once: one more round trip has them.
        *code = roundtrip(client, deadline);
    }
    if (*code != CW_OK) {
        if (*code == CW_TIMED_OUT) snprintf(message, message_size, "the compositor did not answer within %d ms", timeout_ms);
        if (*code == CW_CONNECTION_LOST) snprintf(message, message_size, "the compositor closed the connection");
        cw_disconnect(client);
        return NULL;
    }
    return client;
}

void cw_disconnect(cw_client *client) {
    if (!client) return;
    for (int which = 0; which < 2; which++)
        if (client->sources[which]) source_free(client->sources[which]);
    cw_event event;
    while (cw_next_event(client, &event)) cw_event_release(&event);
    free(client->events.items);
    offer *clipboard = client->selections[CW_CLIPBOARD], *primary = client->selections[CW_PRIMARY];
    offer_free(clipboard);
    if (primary != clipboard) offer_free(primary);
    if (client->device) zwlr_data_control_device_v1_destroy(client->device);
    if (client->manager) zwlr_data_control_manager_v1_destroy(client->manager);
    if (client->seat) wl_seat_destroy(client->seat);
    if (client->registry) wl_registry_destroy(client->registry);
    wl_display_disconnect(client->display);
    free(client);
}

int cw_has_primary(cw_client *client) { return client->manager_version >= 2; }

size_t cw_offer_type_count(cw_client *client, int selection) {
    offer *o = client->selections[selection != 0];
    return o ? o->count : 0;
}

const char *cw_offer_type(cw_client *client, int selection, size_t index) {
    offer *o = client->selections[selection != 0];
    return o && index < o->count ? o->types[index] : NULL;
}

int cw_receive(cw_client *client, int selection, const char *mime_type, int fd) {
    offer *o = client->selections[selection != 0];
    if (!o) return CW_NO_PROTOCOL;
    zwlr_data_control_offer_v1_receive(o->proxy, mime_type, fd);
    if (wl_display_flush(client->display) < 0 && errno != EAGAIN) return CW_CONNECTION_LOST;
    return CW_OK;
}

int cw_fd(cw_client *client) { return wl_display_get_fd(client->display); }

int cw_offer_is_own(cw_client *client, int selection) {
    offer *o = client->selections[selection != 0];
    return o && o->own;
}

uint64_t cw_set_selection(cw_client *client, int selection, const char *const *types, size_t count) {
    int which = selection != 0;
    if (which == CW_PRIMARY && !cw_has_primary(client)) return 0;
    source *src = calloc(1, sizeof *src);
    if (!src) return 0;
    src->proxy = zwlr_data_control_manager_v1_create_data_source(client->manager);
    if (!src->proxy) {
        free(src);
        return 0;
    }
    src->client = client;
    src->selection = which;
    src->id = ++client->last_source_id;
    zwlr_data_control_source_v1_add_listener(src->proxy, &source_listener, src);
    for (size_t i = 0; i < count; i++) zwlr_data_control_source_v1_offer(src->proxy, types[i]);
    if (which == CW_PRIMARY)
        zwlr_data_control_device_v1_set_primary_selection(client->device, src->proxy);
    else
        zwlr_data_control_device_v1_set_selection(client->device, src->proxy);
    // The source it replaces stays ours until the compositor cancels it (it may still be asked to send).
    client->sources[which] = src;
    if (wl_display_flush(client->display) < 0 && errno != EAGAIN) return 0;
    return src->id;
}

int cw_holds_selection(cw_client *client, int selection, uint64_t id) {
    source *src = client->sources[selection != 0];
    return src && (id == 0 || src->id == id);
}

void cw_clear_selection(cw_client *client, int selection) {
    int which = selection != 0;
    if (!client->sources[which]) return;
    if (which == CW_PRIMARY)
        zwlr_data_control_device_v1_set_primary_selection(client->device, NULL);
    else
        zwlr_data_control_device_v1_set_selection(client->device, NULL);
    wl_display_flush(client->display);
}

int cw_next_event(cw_client *client, cw_event *event) {
    event_queue *q = &client->events;
    if (q->count == 0) return 0;
    *event = q->items[q->head];
    q->head = (q->head + 1) % q->capacity;
    q->count--;
    return 1;
}

void cw_event_release(cw_event *event) {
    free(event->mime_type);
    event->mime_type = NULL;
    if (event->fd >= 0) close(event->fd);
    event->fd = -1;
}
