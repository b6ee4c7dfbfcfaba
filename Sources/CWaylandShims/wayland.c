// A compositor's clipboard through a data-control protocol — ext-data-control-v1 (wayland-protocols,
// staging/ext-data-control) where the compositor offers it, else wlr-data-control-unstable-v1 (wlr-protocols,
// unstable/): see CWaylandShims.h.
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
#include "generated/ext-data-control-client.h"
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

struct data_control;

/// MIME types in order, each once: what an offer lists, and what our sources offer.
typedef struct {
    char **types;
    size_t count;
    size_t capacity;
    /// The types by hash, so that a type listed twice is found in constant time, not by a look over the list (an
    /// owner is another client: thousands of distinct types must cost linear time). Open addressing; a slot holds a
    /// type's index + 1, 0 when free; `slot_count` is a power of two, at least twice `count`.
    uint32_t *slots;
    size_t slot_count;
} type_list;

/// An offer the compositor introduced: its proxy and the MIME types it listed, in order.
typedef struct {
    struct wl_proxy *proxy;
    type_list list;
    /// Introduced while our own source held this selection: the compositor telling us our own claim.
    int own;
} offer;

/// One of our sources: the selection it was set as, and the caller's id for it.
typedef struct {
    struct wl_proxy *proxy;
    struct cw_client *client;
    int selection;
    uint64_t id;
} source;

/// The events waiting for the caller, oldest first (a ring that grows).
typedef struct {
    cw_event *items;
    size_t head, count, capacity;
} event_queue;

/// A data-control manager the compositor announced: its global name and version (0: not announced).
typedef struct {
    uint32_t name;
    uint32_t version;
} announced;

enum { PROTOCOL_COUNT = 2 };

struct cw_client {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    /// What the compositor announced of each protocol in `data_controls`, and the one bound.
    announced globals[PROTOCOL_COUNT];
    const struct data_control *protocol;
    uint32_t manager_version;
    struct wl_proxy *manager;
    struct wl_proxy *device;
    /// The offers of the clipboard and the primary selection (NULL: empty).
    offer *selections[2];
    /// Our source that holds each selection (NULL: none of ours, or it was cancelled).
    source *sources[2];
    uint64_t last_source_id;
    event_queue events;
    int finished;
    int synced;
    /// A keep-alive round trip (cw_ping) is out: its callback, until the compositor answers.
    struct wl_callback *ping;
};

static void push_event(cw_client *client, cw_event event) {
    event_queue *q = &client->events;
    if (q->count == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 16;
        cw_event *grown = malloc(capacity * sizeof *grown);
        if (!grown) {
            // Out of memory: a send request is answered by closing its descriptor (the requestor reads nothing).
            cw_event_release(&event);
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

// MARK: - What the compositor says (both protocols)

/// The most MIME types one offer may list, and the longest type kept: an owner is another client, untrusted.
enum { MAX_TYPES = 4096, MAX_TYPE_BYTES = 1024 };

static void offer_free(cw_client *client, offer *o);
static void source_free(source *src);

/// FNV-1a, 32 bits.
static uint32_t type_hash(const char *type) {
    uint32_t hash = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)type; *c; c++) hash = (hash ^ *c) * 16777619u;
    return hash;
}

/// The slot of `type` in `list->slots`: where it is, or the free slot where it would go.
static size_t type_slot(const type_list *list, const char *type) {
    size_t mask = list->slot_count - 1;
    size_t slot = type_hash(type) & mask;
    while (list->slots[slot] && strcmp(list->types[list->slots[slot] - 1], type) != 0) slot = (slot + 1) & mask;
    return slot;
}

/// Makes room in the list's hash for one more type (0: out of memory).
static int reserve_slot(type_list *list) {
    if ((list->count + 1) * 2 <= list->slot_count) return 1;
    size_t slot_count = list->slot_count ? list->slot_count * 2 : 16;
    uint32_t *slots = calloc(slot_count, sizeof *slots);
    if (!slots) return 0;
    free(list->slots);
    list->slots = slots;
    list->slot_count = slot_count;
    for (size_t i = 0; i < list->count; i++) list->slots[type_slot(list, list->types[i])] = (uint32_t)(i + 1);
    return 1;
}

/// Adds `mime_type` to the list unless it is there already, longer than MAX_TYPE_BYTES, or the list holds
/// MAX_TYPES. (FNV-1a is not keyed: types made to collide cost probes, at most MAX_TYPES per type — bounded.)
static void type_list_add(type_list *list, const char *mime_type) {
    if (!mime_type || list->count >= MAX_TYPES || strlen(mime_type) > MAX_TYPE_BYTES) return;
    if (!reserve_slot(list)) return;
    size_t slot = type_slot(list, mime_type);
    if (list->slots[slot]) return;  // listed twice: once is enough
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 8;
        char **grown = realloc(list->types, capacity * sizeof *grown);
        if (!grown) return;
        list->types = grown;
        list->capacity = capacity;
    }
    char *copy = strdup(mime_type);
    if (!copy) return;
    list->types[list->count++] = copy;
    list->slots[slot] = (uint32_t)list->count;
}

static void device_offered(cw_client *client, struct wl_proxy *id);

static void set_selection(cw_client *client, int which, struct wl_proxy *id) {
    offer *old = client->selections[which];
    offer *new = id ? wl_proxy_get_user_data(id) : NULL;
    // The compositor cancels a replaced source before it announces the new selection, so a source of ours still
    // holding this selection means the offer is our own claim coming back.
    if (new) new->own = client->sources[which] != NULL;
    client->selections[which] = new;
    if (old && old != new && old != client->selections[!which]) offer_free(client, old);
    cw_event event = {.kind = CW_EVENT_SELECTION, .selection = which, .fd = -1, .own = new ? new->own : 0};
    if (new && new->list.count) {
        // A copy of the list as it stands now: the caller may take the event after this offer was replaced. Out of
        // memory, the event says the selection is empty rather than name the wrong types.
        event.types = calloc(new->list.count, sizeof *event.types);
        for (size_t i = 0; event.types && i < new->list.count; i++) {
            event.types[i] = strdup(new->list.types[i]);
            if (!event.types[i]) break;
            event.type_count = i + 1;
        }
    }
    push_event(client, event);
}

static void source_send(source *src, const char *mime_type, int32_t fd) {
    char *copy = mime_type ? strdup(mime_type) : NULL;
    if (!copy) {
        close(fd);
        return;
    }
    push_event(src->client, (cw_event){
        .kind = CW_EVENT_SEND, .selection = src->selection, .source = src->id, .fd = fd, .mime_type = copy});
}

static void source_cancelled(source *src) {
    cw_client *client = src->client;
    if (client->sources[src->selection] == src) client->sources[src->selection] = NULL;
    push_event(client, (cw_event){.kind = CW_EVENT_CANCELLED, .selection = src->selection, .source = src->id, .fd = -1});
    source_free(src);
}

// MARK: - The two protocols
//
// ext-data-control-v1 is wlr-data-control-unstable-v1 made a wayland-protocols standard: the same four interfaces
// with the same requests, events and arguments in the same order (compare protocols/*.xml), except that the primary
// selection is there from version 1 (wlr's from version 2). wlroots 0.19 and later offer both; older wlroots only
// wlr; KWin 6 ext, and wlr only in some releases (kwin src/wayland/datacontroldevicemanager_v1.cpp, which serves both
// with one implementation, as here). So the client is written once, against
// this table of the requests it makes and the listeners it sets, which CW_DATA_CONTROL fills for each protocol
// from that protocol's generated code: every opcode and interface comes from wayland-scanner, none is written here.
typedef struct data_control {
    /// The manager global's interface, and the newest version spoken.
    const struct wl_interface *manager_interface;
    uint32_t newest_version;
    /// The version from which the primary selection is there.
    uint32_t primary_since;
    struct wl_proxy *(*get_data_device)(struct wl_proxy *manager, struct wl_seat *seat);
    struct wl_proxy *(*create_data_source)(struct wl_proxy *manager);
    void (*destroy_manager)(struct wl_proxy *manager);
    void (*set_selection)(struct wl_proxy *device, struct wl_proxy *source);
    void (*set_primary_selection)(struct wl_proxy *device, struct wl_proxy *source);
    void (*destroy_device)(struct wl_proxy *device);
    void (*offer_type)(struct wl_proxy *source, const char *mime_type);
    void (*destroy_source)(struct wl_proxy *source);
    void (*receive)(struct wl_proxy *offer, const char *mime_type, int32_t fd);
    void (*destroy_offer)(struct wl_proxy *offer);
    const void *device_listener, *source_listener, *offer_listener;
} data_control;

#define CW_DATA_CONTROL(P, NEWEST, PRIMARY_SINCE)                                                                    \
    static void P##_offer_listed(void *data, struct P##_data_control_offer_v1 *proxy, const char *mime_type) {       \
        (void)proxy;                                                                                                \
        type_list_add(&((offer *)data)->list, mime_type);                                                          \
    }                                                                                                               \
    static const struct P##_data_control_offer_v1_listener P##_offer_listener = {.offer = P##_offer_listed};        \
    static void P##_device_offered(void *data, struct P##_data_control_device_v1 *device,                          \
        struct P##_data_control_offer_v1 *id) {                                                                     \
        (void)device;                                                                                               \
        device_offered(data, (struct wl_proxy *)id);                                                                \
    }                                                                                                               \
    static void P##_device_selection(void *data, struct P##_data_control_device_v1 *device,                        \
        struct P##_data_control_offer_v1 *id) {                                                                     \
        (void)device;                                                                                               \
        set_selection(data, CW_CLIPBOARD, (struct wl_proxy *)id);                                                   \
    }                                                                                                               \
    static void P##_device_primary(void *data, struct P##_data_control_device_v1 *device,                          \
        struct P##_data_control_offer_v1 *id) {                                                                     \
        (void)device;                                                                                               \
        set_selection(data, CW_PRIMARY, (struct wl_proxy *)id);                                                     \
    }                                                                                                               \
    static void P##_device_finished(void *data, struct P##_data_control_device_v1 *device) {                       \
        (void)device;                                                                                               \
        ((cw_client *)data)->finished = 1;                                                                          \
    }                                                                                                               \
    static const struct P##_data_control_device_v1_listener P##_device_listener = {                                \
        .data_offer = P##_device_offered, .selection = P##_device_selection, .finished = P##_device_finished,      \
        .primary_selection = P##_device_primary};                                                                   \
    static void P##_source_send(void *data, struct P##_data_control_source_v1 *proxy, const char *mime_type,       \
        int32_t fd) {                                                                                               \
        (void)proxy;                                                                                                \
        source_send(data, mime_type, fd);                                                                           \
    }                                                                                                               \
    static void P##_source_cancelled(void *data, struct P##_data_control_source_v1 *proxy) {                       \
        (void)proxy;                                                                                                \
        source_cancelled(data);                                                                                     \
    }                                                                                                               \
    static const struct P##_data_control_source_v1_listener P##_source_listener = {                                \
        .send = P##_source_send, .cancelled = P##_source_cancelled};                                                \
    static struct wl_proxy *P##_get_data_device(struct wl_proxy *manager, struct wl_seat *seat) {                  \
        return (struct wl_proxy *)P##_data_control_manager_v1_get_data_device(                                      \
            (struct P##_data_control_manager_v1 *)manager, seat);                                                   \
    }                                                                                                               \
    static struct wl_proxy *P##_create_data_source(struct wl_proxy *manager) {                                     \
        return (struct wl_proxy *)P##_data_control_manager_v1_create_data_source(                                   \
            (struct P##_data_control_manager_v1 *)manager);                                                         \
    }                                                                                                               \
    static void P##_destroy_manager(struct wl_proxy *manager) {                                                    \
        P##_data_control_manager_v1_destroy((struct P##_data_control_manager_v1 *)manager);                         \
    }                                                                                                               \
    static void P##_set_selection(struct wl_proxy *device, struct wl_proxy *source) {                              \
        P##_data_control_device_v1_set_selection(                                                                   \
            (struct P##_data_control_device_v1 *)device, (struct P##_data_control_source_v1 *)source);              \
    }                                                                                                               \
    static void P##_set_primary_selection(struct wl_proxy *device, struct wl_proxy *source) {                      \
        P##_data_control_device_v1_set_primary_selection(                                                           \
            (struct P##_data_control_device_v1 *)device, (struct P##_data_control_source_v1 *)source);              \
    }                                                                                                               \
    static void P##_destroy_device(struct wl_proxy *device) {                                                      \
        P##_data_control_device_v1_destroy((struct P##_data_control_device_v1 *)device);                            \
    }                                                                                                               \
    static void P##_offer_type(struct wl_proxy *source, const char *mime_type) {                                   \
        P##_data_control_source_v1_offer((struct P##_data_control_source_v1 *)source, mime_type);                   \
    }                                                                                                               \
    static void P##_destroy_source(struct wl_proxy *source) {                                                      \
        P##_data_control_source_v1_destroy((struct P##_data_control_source_v1 *)source);                            \
    }                                                                                                               \
    static void P##_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd) {                           \
        P##_data_control_offer_v1_receive((struct P##_data_control_offer_v1 *)offer, mime_type, fd);                \
    }                                                                                                               \
    static void P##_destroy_offer(struct wl_proxy *offer) {                                                        \
        P##_data_control_offer_v1_destroy((struct P##_data_control_offer_v1 *)offer);                               \
    }                                                                                                               \
    static const data_control P##_data_control = {                                                                  \
        .manager_interface = &P##_data_control_manager_v1_interface,                                                \
        .newest_version = NEWEST,                                                                                   \
        .primary_since = PRIMARY_SINCE,                                                                             \
        .get_data_device = P##_get_data_device,                                                                     \
        .create_data_source = P##_create_data_source,                                                               \
        .destroy_manager = P##_destroy_manager,                                                                     \
        .set_selection = P##_set_selection,                                                                         \
        .set_primary_selection = P##_set_primary_selection,                                                         \
        .destroy_device = P##_destroy_device,                                                                       \
        .offer_type = P##_offer_type,                                                                               \
        .destroy_source = P##_destroy_source,                                                                       \
        .receive = P##_receive,                                                                                     \
        .destroy_offer = P##_destroy_offer,                                                                         \
        .device_listener = &P##_device_listener,                                                                    \
        .source_listener = &P##_source_listener,                                                                    \
        .offer_listener = &P##_offer_listener,                                                                      \
    };

CW_DATA_CONTROL(ext, 1, 1)
CW_DATA_CONTROL(zwlr, 2, 2)

/// The protocols, the preferred first: ext is the standard, wlr the one it replaces.
static const data_control *const data_controls[PROTOCOL_COUNT] = {&ext_data_control, &zwlr_data_control};

static void add_listener(struct wl_proxy *proxy, const void *listener, void *data) {
    // What each generated *_add_listener does.
    wl_proxy_add_listener(proxy, (void (**)(void))listener, data);
}

/// Frees a list's types (not the list).
static void type_list_clear(type_list *list) {
    for (size_t i = 0; i < list->count; i++) free(list->types[i]);
    free(list->types);
    free(list->slots);
}

static void offer_free(cw_client *client, offer *o) {
    if (!o) return;
    type_list_clear(&o->list);
    if (o->proxy) client->protocol->destroy_offer(o->proxy);
    free(o);
}

static void device_offered(cw_client *client, struct wl_proxy *id) {
    offer *o = calloc(1, sizeof *o);
    if (!o) {
        client->protocol->destroy_offer(id);
        return;
    }
    o->proxy = id;
    add_listener(id, client->protocol->offer_listener, o);
}

static void source_free(source *src) {
    src->client->protocol->destroy_source(src->proxy);
    free(src);
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    cw_client *client = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !client->seat) {
        client->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
        return;
    }
    for (int i = 0; i < PROTOCOL_COUNT; i++)
        if (strcmp(interface, data_controls[i]->manager_interface->name) == 0) client->globals[i] = (announced){name, version};
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
    int chosen = -1;
    for (int i = PROTOCOL_COUNT - 1; i >= 0; i--)
        if (client->globals[i].name) chosen = i;
    if (*code == CW_OK && (chosen < 0 || !client->seat)) {
        *code = CW_NO_PROTOCOL;
        if (client->seat)
            snprintf(message, message_size, "the compositor offers no data-control protocol (neither %s nor %s): it "
                "cannot share its clipboard", ext_data_control.manager_interface->name,
                zwlr_data_control.manager_interface->name);
        else
            snprintf(message, message_size, "the compositor offers no seat");
    }
    if (*code == CW_OK) {
        client->protocol = data_controls[chosen];
        announced global = client->globals[chosen];
        client->manager_version = global.version < client->protocol->newest_version ? global.version
                                                                                     : client->protocol->newest_version;
        client->manager = wl_registry_bind(client->registry, global.name, client->protocol->manager_interface,
            client->manager_version);
        client->device = client->protocol->get_data_device(client->manager, client->seat);
        add_listener(client->device, client->protocol->device_listener, client);
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
    offer_free(client, clipboard);
    if (primary != clipboard) offer_free(client, primary);
    if (client->device) client->protocol->destroy_device(client->device);
    if (client->manager) client->protocol->destroy_manager(client->manager);
    if (client->seat) wl_seat_destroy(client->seat);
    if (client->registry) wl_registry_destroy(client->registry);
    wl_display_disconnect(client->display);
    free(client);
}

int cw_has_primary(cw_client *client) { return client->manager_version >= client->protocol->primary_since; }

const char *cw_protocol(cw_client *client) { return client->protocol->manager_interface->name; }

size_t cw_offer_type_count(cw_client *client, int selection) {
    offer *o = client->selections[selection != 0];
    return o ? o->list.count : 0;
}

const char *cw_offer_type(cw_client *client, int selection, size_t index) {
    offer *o = client->selections[selection != 0];
    return o && index < o->list.count ? o->list.types[index] : NULL;
}

int cw_receive(cw_client *client, int selection, const char *mime_type, int fd) {
    offer *o = client->selections[selection != 0];
    if (!o) return CW_NO_PROTOCOL;
    client->protocol->receive(o->proxy, mime_type, fd);
    if (wl_display_flush(client->display) < 0 && errno != EAGAIN) return CW_CONNECTION_LOST;
    return CW_OK;
}

int cw_fd(cw_client *client) { return wl_display_get_fd(client->display); }

/// How many bytes of requests are queued before a flush (libwayland's buffer holds 4 KiB), and how long a flush may
/// wait for the compositor to read.
enum { FLUSH_BYTES = 2048, SEND_TIMEOUT_MS = 5000 };

/// The most bytes of messages one of our offers' types may take. The compositor announces them to every data-control
/// client at once, and libwayland-server before 1.23 disconnects a client whose socket that fills (its buffer does
/// not grow: wl_closure_send fails, the client gets an error) — measured with sway 1.7: a reader of an offer of
/// ~600 KB of types was dropped, and so would be the bridge itself, reconnecting into the same offer. 64 KiB is
/// far beyond any application's offer (GTK's and Qt's take under 2 KiB) and well within a socket's buffer.
enum { OFFER_BYTES = 64 << 10 };

/// Flushes what is queued, waiting while the socket is full, until `deadline`.
static int flush_waiting(cw_client *client, long long deadline) {
    while (wl_display_flush(client->display) < 0) {
        if (errno != EAGAIN) return CW_CONNECTION_LOST;
        long long left = deadline - now_ms();
        if (left <= 0) return CW_TIMED_OUT;
        struct pollfd fd = {.fd = wl_display_get_fd(client->display), .events = POLLOUT};
        if (poll(&fd, 1, (int)left) < 0 && errno != EINTR) return CW_CONNECTION_LOST;
    }
    return CW_OK;
}

uint64_t cw_set_selection(cw_client *client, int selection, const char *const *types, size_t count) {
    int which = selection != 0;
    if (which == CW_PRIMARY && !cw_has_primary(client)) return 0;
    source *src = calloc(1, sizeof *src);
    if (!src) return 0;
    src->proxy = client->protocol->create_data_source(client->manager);
    if (!src->proxy) {
        free(src);
        return 0;
    }
    src->client = client;
    src->selection = which;
    src->id = ++client->last_source_id;
    add_listener(src->proxy, client->protocol->source_listener, src);
    // libwayland queues requests in a 4 KiB buffer; a request that finds it full while the socket is full too fails
    // the connection for good (connection.c, wl_connection_write: the flush's EAGAIN is fatal). A long list — an X
    // owner with thousands of targets — is therefore flushed as it goes, waiting (with a deadline) for the compositor
    // to read. What we would not take from another client we do not offer either (type_list_add: MAX_TYPES,
    // MAX_TYPE_BYTES, each type once): a type longer than a Wayland message could hold would end the connection too.
    type_list list = {0};
    for (size_t i = 0; i < count; i++) type_list_add(&list, types[i]);  // the same filter, duplicates dropped
    long long deadline = now_ms() + SEND_TIMEOUT_MS;
    size_t queued = 0, announced = 0;
    for (size_t i = 0; i < list.count; i++) {
        size_t length = strlen(list.types[i]);
        if (announced + length + 16 > OFFER_BYTES) break;
        announced += length + 16;
        if (queued + length + 16 > FLUSH_BYTES) {
            if (flush_waiting(client, deadline) != CW_OK) {
                type_list_clear(&list);
                source_free(src);
                return 0;
            }
            queued = 0;
        }
        client->protocol->offer_type(src->proxy, list.types[i]);
        queued += length + 16;  // the header, the string's length and its padding
    }
    type_list_clear(&list);
    if (which == CW_PRIMARY)
        client->protocol->set_primary_selection(client->device, src->proxy);
    else
        client->protocol->set_selection(client->device, src->proxy);
    // The source it replaces stays ours until the compositor cancels it (it may still be asked to send).
    client->sources[which] = src;
    if (wl_display_flush(client->display) < 0 && errno != EAGAIN) return 0;
    return src->id;
}

int cw_holds_selection(cw_client *client, int selection, uint64_t id) {
    source *src = client->sources[selection != 0];
    return src && (id == 0 || src->id == id);
}

void cw_clear_selection(cw_client *client, int selection, int whoever_holds) {
    int which = selection != 0;
    if (!client->sources[which] && !whoever_holds) return;
    if (which == CW_PRIMARY && !cw_has_primary(client)) return;
    if (which == CW_PRIMARY)
        client->protocol->set_primary_selection(client->device, NULL);
    else
        client->protocol->set_selection(client->device, NULL);
    wl_display_flush(client->display);
}

static void pinged(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    ((cw_client *)data)->ping = NULL;
    wl_callback_destroy(callback);
}

static const struct wl_callback_listener ping_listener = {.done = pinged};

int cw_ping(cw_client *client) {
    if (client->ping) return 0;
    client->ping = wl_display_sync(client->display);
    if (!client->ping) return 0;
    wl_callback_add_listener(client->ping, &ping_listener, client);
    return 1;
}

int cw_sync(cw_client *client, int timeout_ms) {
    return roundtrip(client, now_ms() + timeout_ms);
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
    for (size_t i = 0; i < event->type_count; i++) free(event->types[i]);
    free(event->types);
    event->types = NULL;
    event->type_count = 0;
    if (event->fd >= 0) close(event->fd);
    event->fd = -1;
}
