// A hostile Wayland data-control client for ClipBridge's tests: it sets the clipboard to a source offering COUNT
// distinct MIME types (application/x-hostile-<run>-<i>, then text/plain;charset=utf-8), far more than any application
// offers, through wlr data-control (zwlr_data_control_manager_v1: sway, KWin 5.27). What our own C layer would never
// send (it offers at most 4,096 types), a peer may: the tests check that a compositor's reaction — disconnecting every
// data-control client whose socket the announcement fills — is seen at once and recovered from.
//
//   wayland_many_types COUNT
//
// Prints "READY" once the compositor has the source, then answers each request for text/plain;charset=utf-8 with
// "many types" (any other type with its own name) until it is cancelled ("CANCELLED", exit 0), killed, or the
// compositor goes (exit 1). Built by the tests with cc against libwayland-client and the committed generated code.

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-data-control-client.h"

static struct wl_seat *seat;
static struct zwlr_data_control_manager_v1 *manager;
static int cancelled;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_data_control_manager_v1_interface.name) == 0) {
        manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, version < 2 ? version : 2);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void send_data(void *data, struct zwlr_data_control_source_v1 *source, const char *mime_type, int32_t fd) {
    (void)data;
    (void)source;
    const char *bytes = strcmp(mime_type, "text/plain;charset=utf-8") == 0 ? "many types" : mime_type;
    size_t left = strlen(bytes);
    while (left > 0) {
        ssize_t written = write(fd, bytes, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) break;
        bytes += written;
        left -= (size_t)written;
    }
    close(fd);
}

static void cancel(void *data, struct zwlr_data_control_source_v1 *source) {
    (void)data;
    (void)source;
    cancelled = 1;
}

static const struct zwlr_data_control_source_v1_listener source_listener = {send_data, cancel};

/// Flushes, waiting for the compositor to read when the socket is full.
static int flush(struct wl_display *display) {
    while (wl_display_flush(display) < 0) {
        if (errno != EAGAIN) return -1;
        struct pollfd fd = {.fd = wl_display_get_fd(display), .events = POLLOUT};
        if (poll(&fd, 1, 5000) <= 0) return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2 || atoi(argv[1]) <= 0) {
        fprintf(stderr, "usage: wayland_many_types COUNT\n");
        return 2;
    }
    int count = atoi(argv[1]);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "cannot connect to the compositor: %s\n", strerror(errno));
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!seat || !manager) {
        fprintf(stderr, "the compositor has no seat or no zwlr_data_control_manager_v1\n");
        return 1;
    }
    struct zwlr_data_control_device_v1 *device = zwlr_data_control_manager_v1_get_data_device(manager, seat);
    struct zwlr_data_control_source_v1 *source = zwlr_data_control_manager_v1_create_data_source(manager);
    zwlr_data_control_source_v1_add_listener(source, &source_listener, NULL);
    char type[128];
    for (int i = 0; i < count; i++) {
        snprintf(type, sizeof type, "application/x-hostile-%d-%d", (int)getpid(), i);
        zwlr_data_control_source_v1_offer(source, type);
        if (i % 64 == 63 && flush(display) < 0) {
            fprintf(stderr, "the compositor stopped reading after %d types\n", i + 1);
            return 1;
        }
    }
    zwlr_data_control_source_v1_offer(source, "text/plain;charset=utf-8");
    zwlr_data_control_device_v1_set_selection(device, source);
    if (flush(display) < 0 || wl_display_roundtrip(display) < 0) {
        fprintf(stderr, "the compositor closed the connection\n");
        return 1;
    }
    printf("READY\n");
    fflush(stdout);
    while (!cancelled) {
        if (wl_display_dispatch(display) < 0) {
            fprintf(stderr, "the compositor closed the connection\n");
            return 1;
        }
    }
    printf("CANCELLED\n");
    return 0;
}
