// Loading the system codecs on first use: see codec_library.h.
#include "codec_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define CB_DEFINE_POINTER(name) __typeof__(name) *cb_lazy_##name;
CB_PNG_FUNCTIONS(CB_DEFINE_POINTER)
CB_JPEG_FUNCTIONS(CB_DEFINE_POINTER)
CB_GIF_FUNCTIONS(CB_DEFINE_POINTER)
CB_TIFF_FUNCTIONS(CB_DEFINE_POINTER)
CB_WEBP_FUNCTIONS(CB_DEFINE_POINTER)

typedef struct {
    const char *name;
    void **slot;
} symbol;

#define CB_SYMBOL(name) {#name, (void **)&cb_lazy_##name},
static const symbol png_symbols[] = {CB_PNG_FUNCTIONS(CB_SYMBOL)};
static const symbol jpeg_symbols[] = {CB_JPEG_FUNCTIONS(CB_SYMBOL)};
static const symbol gif_symbols[] = {CB_GIF_FUNCTIONS(CB_SYMBOL)};
static const symbol tiff_symbols[] = {CB_TIFF_FUNCTIONS(CB_SYMBOL)};
static const symbol webp_symbols[] = {CB_WEBP_FUNCTIONS(CB_SYMBOL)};

#define COUNT(array) (sizeof(array) / sizeof(array[0]))

static struct {
    const char *soname;
    const char *package;
    const symbol *symbols;
    size_t count;
    int state;  // 0 not tried, 1 loaded, -1 failed
    char error[200];
} libraries[CB_LIBRARY_COUNT] = {
    [CB_LIBRARY_PNG] = {"libpng16.so.16", "libpng16-16", png_symbols, COUNT(png_symbols), 0, ""},
    [CB_LIBRARY_JPEG] = {"libjpeg.so.62", "libjpeg62-turbo", jpeg_symbols, COUNT(jpeg_symbols), 0, ""},
    [CB_LIBRARY_GIF] = {"libgif.so.7", "libgif7", gif_symbols, COUNT(gif_symbols), 0, ""},
    [CB_LIBRARY_TIFF] = {"libtiff.so.6", "libtiff6", tiff_symbols, COUNT(tiff_symbols), 0, ""},
    [CB_LIBRARY_WEBP] = {"libwebp.so.7", "libwebp7", webp_symbols, COUNT(webp_symbols), 0, ""},
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int load(int index) {
    void *handle = dlopen(libraries[index].soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(libraries[index].error, sizeof libraries[index].error, "cannot load %s (Debian's %s): %s",
            libraries[index].soname, libraries[index].package, dlerror());
        return -1;
    }
    for (size_t i = 0; i < libraries[index].count; i++) {
        void *address = dlsym(handle, libraries[index].symbols[i].name);
        if (!address) {
            snprintf(libraries[index].error, sizeof libraries[index].error, "%s has no %s", libraries[index].soname,
                libraries[index].symbols[i].name);
            return -1;
        }
        *libraries[index].symbols[i].slot = address;
    }
    return 1;
}

int cb_load_codec(cb_library library, cb_context *context) {
    pthread_mutex_lock(&lock);
    if (libraries[library].state == 0) libraries[library].state = load(library);
    int state = libraries[library].state;
    pthread_mutex_unlock(&lock);
    if (state > 0) return CB_OK;
    snprintf(context->message, sizeof context->message, "%s", libraries[library].error);
    return CB_UNAVAILABLE;
}
