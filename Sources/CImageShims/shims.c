// The system image codecs, memory to memory, with their errors caught. Every decoder checks the header's
// pixel count against the caller's cap before it allocates pixels, polls the cancellation flag between rows,
// and never reads past the caller's bytes. Nothing here decides policy (which formats, which limits, what
// to do with animation or orientation): that is ImageCodecs' Swift side.
#include "CImageShims.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_library.h"
#include <jerror.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "16-bit samples are exchanged in host order; this file assumes a little-endian host"
#endif

// MARK: - Shared

void cb_cancel(cb_context *context) { __atomic_store_n(&context->cancelled, 1, __ATOMIC_RELAXED); }
void cb_free(void *pointer) { free(pointer); }

static int is_cancelled(cb_context *context) { return __atomic_load_n(&context->cancelled, __ATOMIC_RELAXED) != 0; }

static int fail(cb_context *context, int code, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(context->message, sizeof context->message, format, arguments);
    va_end(arguments);
    return code;
}

/// Checks width × height against the cap; also rejects an empty image.
static int check_size(cb_context *context, uint64_t width, uint64_t height) {
    if (width == 0 || height == 0) return fail(context, CB_INVALID, "the image is %llux%llu pixels",
        (unsigned long long)width, (unsigned long long)height);
    if (width * height > context->max_pixels)
        return fail(context, CB_TOO_LARGE, "the image is %llux%llu pixels, more than the limit of %llu pixels",
            (unsigned long long)width, (unsigned long long)height, (unsigned long long)context->max_pixels);
    return CB_OK;
}

static uint8_t *allocate_pixels(uint32_t width, uint32_t height, uint32_t bits) {
    size_t bytes = (size_t)width * height * 4 * (bits / 8);
    return malloc(bytes == 0 ? 1 : bytes);
}

/// A cursor over the caller's bytes.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} reader;

/// A growable output buffer.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    size_t offset;
    int failed;
} writer;

static int writer_put(writer *w, const void *bytes, size_t count) {
    if (w->failed) return 0;
    size_t end = w->offset + count;
    if (end < w->offset) { w->failed = 1; return 0; }
    if (end > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 65536;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(w->data, capacity);
        if (!grown) { w->failed = 1; return 0; }
        w->data = grown;
        w->capacity = capacity;
    }
    if (w->offset > w->size) memset(w->data + w->size, 0, w->offset - w->size);
    memcpy(w->data + w->offset, bytes, count);
    w->offset = end;
    if (end > w->size) w->size = end;
    return 1;
}

// MARK: - PNG (libpng; errors longjmp out of png_error)

static void png_error_handler(png_structp png, png_const_charp message) {
    cb_context *context = CB(png_get_error_ptr)(png);
    if (context->message[0] == 0) snprintf(context->message, sizeof context->message, "PNG: %s", message);
    CB(png_longjmp)(png, 1);
}

static void png_warning_handler(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void png_read_memory(png_structp png, png_bytep out, size_t count) {
    reader *r = CB(png_get_io_ptr)(png);
    if (count > r->size - r->offset) CB(png_error)(png, "the data ends early (truncated)");
    memcpy(out, r->data + r->offset, count);
    r->offset += count;
}

int cb_png_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_PNG, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    png_structp png = CB(png_create_read_struct)(PNG_LIBPNG_VER_STRING, context, png_error_handler, png_warning_handler);
    if (!png) return fail(context, CB_NO_MEMORY, "PNG: out of memory");
    png_infop info = CB(png_create_info_struct)(png);
    if (!info) {
        CB(png_destroy_read_struct)(&png, NULL, NULL);
        return fail(context, CB_NO_MEMORY, "PNG: out of memory");
    }
    reader source = {data, size, 0};
    uint8_t *volatile pixels = NULL;
    volatile int code = CB_INVALID;
    if (setjmp(*CB(png_set_longjmp_fn)(png, longjmp, sizeof(jmp_buf)))) {
        free(pixels);
        CB(png_destroy_read_struct)(&png, &info, NULL);
        return code;
    }
    CB(png_set_read_fn)(png, &source, png_read_memory);
    // Ancillary chunks (iCCP, zTXt, iTXt) are decompressed into memory: bound each, and their number.
    CB(png_set_chunk_malloc_max)(png, 16u << 20);
    CB(png_set_chunk_cache_max)(png, 1000);
    CB(png_read_info)(png, info);

    uint32_t width = CB(png_get_image_width)(png, info), height = CB(png_get_image_height)(png, info);
    int depth = CB(png_get_bit_depth)(png, info), color = CB(png_get_color_type)(png, info);
    int status = check_size(context, width, height);
    if (status != CB_OK) { code = status; CB(png_longjmp)(png, 1); }
    uint32_t bits = depth == 16 && !context->eight_bit ? 16 : 8;
    out->has_alpha = (color & PNG_COLOR_MASK_ALPHA) || CB(png_get_valid)(png, info, PNG_INFO_tRNS);
    CB(png_set_expand)(png);  // palette → RGB, grey below 8 bits → 8, tRNS → alpha
    CB(png_set_gray_to_rgb)(png);
    if (bits == 16) CB(png_set_swap)(png);  // PNG is big-endian; callers get host order
    else if (depth == 16) CB(png_set_scale_16)(png);  // rounds (v × 255 / 65535), unlike png_set_strip_16
    CB(png_set_add_alpha)(png, bits == 16 ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    int passes = CB(png_set_interlace_handling)(png);
    CB(png_read_update_info)(png, info);
    size_t row_bytes = (size_t)width * 4 * (bits / 8);
    if (CB(png_get_rowbytes)(png, info) != row_bytes) CB(png_error)(png, "unexpected row layout after expansion");
    pixels = allocate_pixels(width, height, bits);
    if (!pixels) { code = CB_NO_MEMORY; CB(png_error)(png, "out of memory"); }
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            if (is_cancelled(context)) { code = CB_CANCELLED; CB(png_error)(png, "cancelled"); }
            CB(png_read_row)(png, pixels + y * row_bytes, NULL);
        }
    }
    // IEND and chunks after the image are not read: browsers and toolkits show images that lack them.
    CB(png_destroy_read_struct)(&png, &info, NULL);
    out->width = width;
    out->height = height;
    out->bits = bits;
    out->pixels = pixels;
    return CB_OK;
}

static void png_write_memory(png_structp png, png_bytep bytes, size_t count) {
    if (!writer_put(CB(png_get_io_ptr)(png), bytes, count)) CB(png_error)(png, "out of memory");
}

static void png_flush_memory(png_structp png) { (void)png; }

int cb_png_encode(const cb_pixels *in, cb_context *context, cb_bytes *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_PNG, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    png_structp png = CB(png_create_write_struct)(PNG_LIBPNG_VER_STRING, context, png_error_handler, png_warning_handler);
    if (!png) return fail(context, CB_NO_MEMORY, "PNG: out of memory");
    png_infop info = CB(png_create_info_struct)(png);
    if (!info) {
        CB(png_destroy_write_struct)(&png, NULL);
        return fail(context, CB_NO_MEMORY, "PNG: out of memory");
    }
    writer sink = {0};
    volatile int code = CB_INVALID;
    if (setjmp(*CB(png_set_longjmp_fn)(png, longjmp, sizeof(jmp_buf)))) {
        free(sink.data);
        CB(png_destroy_write_struct)(&png, &info);
        return code;
    }
    CB(png_set_write_fn)(png, &sink, png_write_memory, png_flush_memory);
    CB(png_set_IHDR)(png, info, in->width, in->height, (int)in->bits,
        in->has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
        PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    CB(png_write_info)(png, info);
    if (!in->has_alpha) CB(png_set_filler)(png, 0, PNG_FILLER_AFTER);  // on writing, strips the fourth sample
    if (in->bits == 16) CB(png_set_swap)(png);
    size_t row_bytes = (size_t)in->width * 4 * (in->bits / 8);
    for (uint32_t y = 0; y < in->height; y++) {
        if (is_cancelled(context)) { code = CB_CANCELLED; CB(png_error)(png, "cancelled"); }
        CB(png_write_row)(png, in->pixels + y * row_bytes);
    }
    CB(png_write_end)(png, NULL);
    CB(png_destroy_write_struct)(&png, &info);
    if (sink.failed) { free(sink.data); return fail(context, CB_NO_MEMORY, "PNG: out of memory"); }
    out->data = sink.data;
    out->size = sink.size;
    return CB_OK;
}

// MARK: - JPEG (libjpeg-turbo; errors longjmp out of error_exit)

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    cb_context *context;
    int code;
} jpeg_failure;

typedef struct {
    struct jpeg_progress_mgr manager;
    cb_context *context;
} jpeg_progress;

static void jpeg_error_handler(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    if (failure->context->message[0] == 0) {
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        snprintf(failure->context->message, sizeof failure->context->message, "JPEG: %s", text);
    }
    longjmp(failure->jump, 1);
}

/// Warnings are ignored (camera files often have stray bytes before a marker) except a premature end:
/// libjpeg would fill the missing rows with grey and call the image whole.
static void jpeg_message_handler(j_common_ptr info, int level) {
    if (level == -1 && info->err->msg_code == JWRN_JPEG_EOF) {
        snprintf(((jpeg_failure *)info->err)->context->message, sizeof ((jpeg_failure *)info->err)->context->message,
            "JPEG: the data ends early (truncated)");
        jpeg_error_handler(info);
    }
}

static void jpeg_progress_handler(j_common_ptr info) {
    jpeg_progress *progress = (jpeg_progress *)info->progress;
    jpeg_failure *failure = (jpeg_failure *)info->err;
    if (is_cancelled(progress->context)) {
        failure->code = CB_CANCELLED;
        snprintf(progress->context->message, sizeof progress->context->message, "cancelled");
        longjmp(failure->jump, 1);
    }
    if (info->is_decompressor) {
        j_decompress_ptr decompress = (j_decompress_ptr)info;
        if (decompress->input_scan_number > progress->context->max_scans) {
            snprintf(progress->context->message, sizeof progress->context->message,
                "JPEG: more than %d progressive scans", progress->context->max_scans);
            longjmp(failure->jump, 1);
        }
    }
}

int cb_jpeg_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_JPEG, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    struct jpeg_decompress_struct info;
    jpeg_failure failure = {.context = context, .code = CB_INVALID};
    jpeg_progress progress = {.context = context};
    uint8_t *volatile pixels = NULL;
    info.err = CB(jpeg_std_error)(&failure.manager);
    failure.manager.error_exit = jpeg_error_handler;
    failure.manager.emit_message = jpeg_message_handler;
    if (setjmp(failure.jump)) {
        free(pixels);
        CB(jpeg_destroy_decompress)(&info);
        return failure.code;
    }
    CB(jpeg_CreateDecompress)(&info, JPEG_LIB_VERSION, sizeof(struct jpeg_decompress_struct));
    progress.manager.progress_monitor = jpeg_progress_handler;
    info.progress = &progress.manager;
    CB(jpeg_mem_src)(&info, data, (unsigned long)size);
    CB(jpeg_read_header)(&info, TRUE);
    int status = check_size(context, info.image_width, info.image_height);
    if (status != CB_OK) { failure.code = status; longjmp(failure.jump, 1); }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    CB(jpeg_start_decompress)(&info);
    uint32_t width = info.output_width, height = info.output_height;
    size_t row_bytes = (size_t)width * 4;
    pixels = allocate_pixels(width, height, 8);
    if (!pixels) { failure.code = CB_NO_MEMORY; ERREXIT(&info, JERR_OUT_OF_MEMORY); }
    // Photoshop writes Adobe CMYK inverted (the APP14 marker tells); convert naively, as browsers do.
    int inverted = info.saw_Adobe_marker;
    while (info.output_scanline < height) {
        if (is_cancelled(context)) {
            failure.code = CB_CANCELLED;
            snprintf(context->message, sizeof context->message, "cancelled");
            longjmp(failure.jump, 1);
        }
        JSAMPROW target = pixels + (size_t)info.output_scanline * row_bytes;
        CB(jpeg_read_scanlines)(&info, &target, 1);
        if (cmyk) {
            for (uint32_t x = 0; x < width; x++) {
                uint8_t *p = target + x * 4;
                unsigned c = p[0], m = p[1], y = p[2], k = p[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                p[0] = (uint8_t)(c * k / 255);
                p[1] = (uint8_t)(m * k / 255);
                p[2] = (uint8_t)(y * k / 255);
                p[3] = 255;
            }
        }
    }
    CB(jpeg_finish_decompress)(&info);
    CB(jpeg_destroy_decompress)(&info);
    out->width = width;
    out->height = height;
    out->bits = 8;
    out->pixels = pixels;
    return CB_OK;
}

int cb_jpeg_encode(const cb_pixels *in, int quality, cb_context *context, cb_bytes *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_JPEG, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    if (in->bits != 8) return fail(context, CB_INVALID, "JPEG: 8 bits per channel expected");
    struct jpeg_compress_struct info;
    jpeg_failure failure = {.context = context, .code = CB_INVALID};
    jpeg_progress progress = {.context = context};
    // libjpeg-turbo's memory destination keeps `destination` current as it grows (its address escapes, so
    // it lives in memory across the longjmp); the caller frees it.
    unsigned char *destination = NULL;
    unsigned long buffer_size = 0;
    uint8_t *volatile row = NULL;
    info.err = CB(jpeg_std_error)(&failure.manager);
    failure.manager.error_exit = jpeg_error_handler;
    failure.manager.emit_message = jpeg_message_handler;
    if (setjmp(failure.jump)) {
        CB(jpeg_destroy_compress)(&info);
        free(destination);
        free(row);
        return failure.code;
    }
    CB(jpeg_CreateCompress)(&info, JPEG_LIB_VERSION, sizeof(struct jpeg_compress_struct));
    progress.manager.progress_monitor = jpeg_progress_handler;
    info.progress = &progress.manager;
    CB(jpeg_mem_dest)(&info, &destination, &buffer_size);
    info.image_width = in->width;
    info.image_height = in->height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    CB(jpeg_set_defaults)(&info);
    CB(jpeg_set_quality)(&info, quality, TRUE);
    CB(jpeg_start_compress)(&info, TRUE);
    row = malloc((size_t)in->width * 3);
    if (!row) { failure.code = CB_NO_MEMORY; ERREXIT(&info, JERR_OUT_OF_MEMORY); }
    for (uint32_t y = 0; y < in->height; y++) {
        if (is_cancelled(context)) {
            failure.code = CB_CANCELLED;
            snprintf(context->message, sizeof context->message, "cancelled");
            longjmp(failure.jump, 1);
        }
        const uint8_t *source = in->pixels + (size_t)y * in->width * 4;
        for (uint32_t x = 0; x < in->width; x++) {
            const uint8_t *p = source + x * 4;
            unsigned alpha = in->has_alpha ? p[3] : 255;
            // JPEG has no alpha: flatten onto white, as ImageMagick and browsers do when saving.
            for (int c = 0; c < 3; c++) row[x * 3 + c] = (uint8_t)((p[c] * alpha + 255 * (255 - alpha) + 127) / 255);
        }
        JSAMPROW line = row;
        CB(jpeg_write_scanlines)(&info, &line, 1);
    }
    CB(jpeg_finish_compress)(&info);
    CB(jpeg_destroy_compress)(&info);
    free(row);
    out->data = destination;
    out->size = buffer_size;
    return CB_OK;
}

// MARK: - GIF (giflib)

static int gif_read_memory(GifFileType *gif, GifByteType *out, int count) {
    reader *r = gif->UserData;
    size_t available = r->size - r->offset;
    size_t n = count < 0 ? 0 : (size_t)count;
    if (n > available) n = available;
    memcpy(out, r->data + r->offset, n);
    r->offset += n;
    return (int)n;
}

int cb_gif_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_GIF, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    reader source = {data, size, 0};
    int error = 0;
    GifFileType *gif = CB(DGifOpen)(&source, gif_read_memory, &error);
    if (!gif) return fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(error));
    int code = CB_INVALID;
    int transparent = -1;
    uint8_t *pixels = NULL, *line = NULL;
    for (;;) {
        GifRecordType type;
        if (CB(DGifGetRecordType)(gif, &type) != GIF_OK) {
            code = fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(gif->Error));
            break;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int function = 0;
            GifByteType *extension = NULL;
            if (CB(DGifGetExtension)(gif, &function, &extension) != GIF_OK) {
                code = fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(gif->Error));
                break;
            }
            // Graphic Control Extension (GIF89a §23): packed field bit 0 says byte 4 is the transparent index.
            if (function == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4)
                transparent = (extension[1] & 1) ? extension[4] : -1;
            while (extension) {
                if (CB(DGifGetExtensionNext)(gif, &extension) != GIF_OK) break;
            }
            if (gif->Error) {
                code = fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(gif->Error));
                break;
            }
            continue;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            code = fail(context, CB_INVALID, "GIF: no image in the file");
            break;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (CB(DGifGetImageDesc)(gif) != GIF_OK) {
            code = fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(gif->Error));
            break;
        }
        GifImageDesc frame = gif->Image;
        ColorMapObject *map = frame.ColorMap ? frame.ColorMap : gif->SColorMap;
        if (!map) { code = fail(context, CB_INVALID, "GIF: the image has no colour table"); break; }
        // The canvas is the logical screen, grown to hold the frame when the screen is smaller (browsers do).
        uint64_t width = (uint64_t)frame.Left + (uint64_t)frame.Width, height = (uint64_t)frame.Top + (uint64_t)frame.Height;
        if ((uint64_t)gif->SWidth > width) width = gif->SWidth;
        if ((uint64_t)gif->SHeight > height) height = gif->SHeight;
        if ((code = check_size(context, width, height)) != CB_OK) break;
        if (frame.Width <= 0 || frame.Height <= 0) { code = fail(context, CB_INVALID, "GIF: an empty frame"); break; }
        pixels = calloc((size_t)width * height, 4);
        line = malloc((size_t)frame.Width);
        if (!pixels || !line) { code = fail(context, CB_NO_MEMORY, "GIF: out of memory"); break; }
        static const int interlaced_start[] = {0, 4, 2, 1}, interlaced_step[] = {8, 8, 4, 2};
        int passes = frame.Interlace ? 4 : 1;
        code = CB_OK;
        for (int pass = 0; pass < passes && code == CB_OK; pass++) {
            int start = frame.Interlace ? interlaced_start[pass] : 0, step = frame.Interlace ? interlaced_step[pass] : 1;
            for (int y = start; y < frame.Height; y += step) {
                if (is_cancelled(context)) { code = fail(context, CB_CANCELLED, "cancelled"); break; }
                if (CB(DGifGetLine)(gif, line, frame.Width) != GIF_OK) {
                    code = fail(context, CB_INVALID, "GIF: %s", CB(GifErrorString)(gif->Error));
                    break;
                }
                uint8_t *target = pixels + (((size_t)(frame.Top + y)) * width + (size_t)frame.Left) * 4;
                for (int x = 0; x < frame.Width; x++, target += 4) {
                    int index = line[x];
                    if (index == transparent || index >= map->ColorCount) continue;
                    target[0] = map->Colors[index].Red;
                    target[1] = map->Colors[index].Green;
                    target[2] = map->Colors[index].Blue;
                    target[3] = 255;
                }
            }
        }
        if (code == CB_OK) {
            out->width = (uint32_t)width;
            out->height = (uint32_t)height;
            out->bits = 8;
            out->has_alpha = transparent >= 0 || frame.Left > 0 || frame.Top > 0 || (uint64_t)frame.Width < width
                || (uint64_t)frame.Height < height;
            out->pixels = pixels;
            pixels = NULL;
        }
        break;
    }
    free(pixels);
    free(line);
    CB(DGifCloseFile)(gif, &error);
    return code;
}

// MARK: - TIFF (libtiff; per-handle error handlers, libtiff ≥ 4.5)

static tmsize_t tiff_read(thandle_t handle, void *out, tmsize_t count) {
    writer *w = handle;  // reading and writing share one memory file
    if (count < 0 || w->offset >= w->size) return 0;
    size_t n = (size_t)count;
    if (n > w->size - w->offset) n = w->size - w->offset;
    memcpy(out, w->data + w->offset, n);
    w->offset += n;
    return (tmsize_t)n;
}

static tmsize_t tiff_write(thandle_t handle, void *bytes, tmsize_t count) {
    writer *w = handle;
    if (w->capacity == 0 && w->data) return 0;  // a read-only memory file (capacity 0, caller's bytes)
    return writer_put(w, bytes, (size_t)count) ? count : -1;
}

static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    writer *w = handle;
    uint64_t base = whence == SEEK_CUR ? w->offset : whence == SEEK_END ? w->size : 0;
    uint64_t target = base + offset;
    if (target > (uint64_t)SIZE_MAX / 2) return (toff_t)-1;
    w->offset = (size_t)target;
    return target;
}

static int tiff_close(thandle_t handle) { (void)handle; return 0; }
static toff_t tiff_size(thandle_t handle) { return ((writer *)handle)->size; }
static int tiff_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int tiff_error_handler(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    cb_context *context = user;
    if (context->message[0] == 0) {
        char text[200];
        vsnprintf(text, sizeof text, format, arguments);
        snprintf(context->message, sizeof context->message, "TIFF: %s", text);
    }
    return 1;
}

static int tiff_warning_handler(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

static TIFF *tiff_open(writer *file, const char *mode, cb_context *context) {
    TIFFOpenOptions *options = CB(TIFFOpenOptionsAlloc)();
    if (!options) return NULL;
    // libtiff's own allocations (strip buffers, tag arrays) are bounded too, not only the raster.
    CB(TIFFOpenOptionsSetMaxSingleMemAlloc)(options, 256 << 20);
    CB(TIFFOpenOptionsSetErrorHandlerExtR)(options, tiff_error_handler, context);
    CB(TIFFOpenOptionsSetWarningHandlerExtR)(options, tiff_warning_handler, context);
    TIFF *tiff = CB(TIFFClientOpenExt)("clipboard", mode, file, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
        tiff_map, tiff_unmap, options);
    CB(TIFFOpenOptionsFree)(options);
    return tiff;
}

int cb_tiff_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_TIFF, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    writer file = {(uint8_t *)data, size, 0, 0, 0};
    TIFF *tiff = tiff_open(&file, "rm", context);
    if (!tiff) return context->message[0] ? CB_INVALID : fail(context, CB_INVALID, "TIFF: not a TIFF file");
    uint32_t width = 0, height = 0;
    CB(TIFFGetField)(tiff, TIFFTAG_IMAGEWIDTH, &width);
    CB(TIFFGetField)(tiff, TIFFTAG_IMAGELENGTH, &height);
    int code = check_size(context, width, height);
    if (code != CB_OK) { CB(TIFFClose)(tiff); return code; }
    char message[1024] = {0};
    TIFFRGBAImage image;
    if (!CB(TIFFRGBAImageOK)(tiff, message) || !CB(TIFFRGBAImageBegin)(&image, tiff, 0, message)) {
        CB(TIFFClose)(tiff);
        return context->message[0] ? CB_INVALID : fail(context, CB_INVALID, "TIFF: %s", message);
    }
    // Rows come out as stored: the orientation tag is applied by the caller, with the EXIF rules.
    image.req_orientation = image.orientation;
    uint8_t *pixels = allocate_pixels(width, height, 8);
    if (!pixels) {
        CB(TIFFRGBAImageEnd)(&image);
        CB(TIFFClose)(tiff);
        return fail(context, CB_NO_MEMORY, "TIFF: out of memory");
    }
    int ok = CB(TIFFRGBAImageGet)(&image, (uint32_t *)pixels, width, height);
    int alpha = image.alpha;
    uint32_t orientation = image.orientation;
    CB(TIFFRGBAImageEnd)(&image);
    CB(TIFFClose)(tiff);
    if (!ok || is_cancelled(context)) {
        free(pixels);
        if (is_cancelled(context)) return fail(context, CB_CANCELLED, "cancelled");
        return context->message[0] ? CB_INVALID : fail(context, CB_INVALID, "TIFF: the image data cannot be read");
    }
    // TIFFRGBAImage associates (premultiplies) alpha; callers get straight alpha.
    if (alpha) {
        size_t count = (size_t)width * height;
        for (size_t i = 0; i < count; i++) {
            uint8_t *p = pixels + i * 4;
            if (p[3] != 0 && p[3] != 255)
                for (int c = 0; c < 3; c++) {
                    unsigned value = (p[c] * 255u + p[3] / 2) / p[3];
                    p[c] = (uint8_t)(value > 255 ? 255 : value);
                }
        }
    }
    out->width = width;
    out->height = height;
    out->bits = 8;
    out->has_alpha = alpha != 0;
    out->orientation = orientation;
    out->pixels = pixels;
    return CB_OK;
}

int cb_tiff_encode(const cb_pixels *in, cb_context *context, cb_bytes *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_TIFF, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    writer file = {0};
    TIFF *tiff = tiff_open(&file, "w", context);
    if (!tiff) return fail(context, CB_NO_MEMORY, "TIFF: cannot open a memory file");
    uint16_t samples = in->has_alpha ? 4 : 3, bytes_per_sample = (uint16_t)(in->bits / 8);
    CB(TIFFSetField)(tiff, TIFFTAG_IMAGEWIDTH, in->width);
    CB(TIFFSetField)(tiff, TIFFTAG_IMAGELENGTH, in->height);
    CB(TIFFSetField)(tiff, TIFFTAG_BITSPERSAMPLE, (uint16_t)in->bits);
    CB(TIFFSetField)(tiff, TIFFTAG_SAMPLESPERPIXEL, samples);
    CB(TIFFSetField)(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    CB(TIFFSetField)(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    CB(TIFFSetField)(tiff, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    CB(TIFFSetField)(tiff, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
    CB(TIFFSetField)(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    if (in->has_alpha) {
        uint16_t extra[] = {EXTRASAMPLE_UNASSALPHA};
        CB(TIFFSetField)(tiff, TIFFTAG_EXTRASAMPLES, 1, extra);
    }
    CB(TIFFSetField)(tiff, TIFFTAG_ROWSPERSTRIP, CB(TIFFDefaultStripSize)(tiff, 0));
    size_t source_row = (size_t)in->width * 4 * bytes_per_sample;
    size_t pixel_bytes = (size_t)samples * bytes_per_sample;
    uint8_t *row = malloc((size_t)in->width * pixel_bytes);
    int code = row ? CB_OK : fail(context, CB_NO_MEMORY, "TIFF: out of memory");
    for (uint32_t y = 0; y < in->height && code == CB_OK; y++) {
        if (is_cancelled(context)) { code = fail(context, CB_CANCELLED, "cancelled"); break; }
        const uint8_t *source = in->pixels + y * source_row;
        for (uint32_t x = 0; x < in->width; x++)
            memcpy(row + x * pixel_bytes, source + (size_t)x * 4 * bytes_per_sample, pixel_bytes);
        if (CB(TIFFWriteScanline)(tiff, row, y, 0) < 0)
            code = context->message[0] ? CB_INVALID : fail(context, CB_INVALID, "TIFF: cannot write a row");
    }
    free(row);
    if (code == CB_OK && !CB(TIFFFlush)(tiff)) code = fail(context, CB_INVALID, "TIFF: cannot finish the file");
    CB(TIFFClose)(tiff);
    if (code == CB_OK && file.failed) code = fail(context, CB_NO_MEMORY, "TIFF: out of memory");
    if (code != CB_OK) { free(file.data); return code; }
    out->data = file.data;
    out->size = file.size;
    return CB_OK;
}

// MARK: - WebP (libwebp)

int cb_webp_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_WEBP, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    WebPBitstreamFeatures features;
    if (CB(WebPGetFeaturesInternal)(data, size, &features, WEBP_DECODER_ABI_VERSION) != VP8_STATUS_OK)
        return fail(context, CB_INVALID, "WebP: the header cannot be read");
    if (features.has_animation) return fail(context, CB_INVALID, "WebP: the image is animated");
    int code = check_size(context, (uint64_t)features.width, (uint64_t)features.height);
    if (code != CB_OK) return code;
    uint32_t width = (uint32_t)features.width, height = (uint32_t)features.height;
    size_t stride = (size_t)width * 4;
    uint8_t *pixels = allocate_pixels(width, height, 8);
    if (!pixels) return fail(context, CB_NO_MEMORY, "WebP: out of memory");
    // Incremental decoding, so a cancellation is seen between chunks.
    WebPIDecoder *decoder = CB(WebPINewRGB)(MODE_RGBA, pixels, stride * height, (int)stride);
    if (!decoder) { free(pixels); return fail(context, CB_NO_MEMORY, "WebP: out of memory"); }
    VP8StatusCode status = VP8_STATUS_SUSPENDED;
    size_t offset = 0;
    while (offset < size && status == VP8_STATUS_SUSPENDED) {
        if (is_cancelled(context)) { code = fail(context, CB_CANCELLED, "cancelled"); break; }
        size_t chunk = size - offset < 65536 ? size - offset : 65536;
        status = CB(WebPIAppend)(decoder, data + offset, chunk);
        offset += chunk;
    }
    CB(WebPIDelete)(decoder);
    if (code == CB_OK && status == VP8_STATUS_SUSPENDED) code = fail(context, CB_INVALID, "WebP: the data ends early (truncated)");
    else if (code == CB_OK && status != VP8_STATUS_OK) code = fail(context, CB_INVALID, "WebP: corrupt data (status %d)", (int)status);
    if (code != CB_OK) { free(pixels); return code; }
    out->width = width;
    out->height = height;
    out->bits = 8;
    out->has_alpha = features.has_alpha != 0;
    out->pixels = pixels;
    return CB_OK;
}

static int webp_progress(int percent, const WebPPicture *picture) {
    (void)percent;
    return !is_cancelled((cb_context *)picture->user_data);
}

int cb_webp_encode(const cb_pixels *in, int quality, int lossless, cb_context *context, cb_bytes *out) {
    memset(out, 0, sizeof *out);
    int loaded = cb_load_codec(CB_LIBRARY_WEBP, context);
    if (loaded != CB_OK) return loaded;
    context->message[0] = 0;
    if (in->bits != 8) return fail(context, CB_INVALID, "WebP: 8 bits per channel expected");
    if (in->width > WEBP_MAX_DIMENSION || in->height > WEBP_MAX_DIMENSION)
        return fail(context, CB_TOO_LARGE, "WebP: %ux%u is larger than the format's %d pixels a side", in->width,
            in->height, WEBP_MAX_DIMENSION);
    WebPConfig config;
    WebPPicture picture;
    if (!CB(WebPConfigInitInternal)(&config, WEBP_PRESET_DEFAULT, 75.f, WEBP_ENCODER_ABI_VERSION)
        || !CB(WebPPictureInitInternal)(&picture, WEBP_ENCODER_ABI_VERSION)) return fail(context, CB_INVALID, "WebP: version mismatch");
    config.quality = (float)quality;
    config.lossless = lossless ? 1 : 0;
    picture.use_argb = config.lossless;
    picture.width = (int)in->width;
    picture.height = (int)in->height;
    int stride = (int)in->width * 4;
    int imported = in->has_alpha ? CB(WebPPictureImportRGBA)(&picture, in->pixels, stride)
                                 : CB(WebPPictureImportRGBX)(&picture, in->pixels, stride);
    if (!imported) return fail(context, CB_NO_MEMORY, "WebP: out of memory");
    WebPMemoryWriter sink;
    CB(WebPMemoryWriterInit)(&sink);
    picture.writer = CB(WebPMemoryWrite);
    picture.custom_ptr = &sink;
    picture.progress_hook = webp_progress;
    picture.user_data = context;
    int ok = CB(WebPEncode)(&config, &picture);
    WebPEncodingError error = picture.error_code;
    CB(WebPPictureFree)(&picture);
    if (!ok) {
        CB(WebPMemoryWriterClear)(&sink);
        if (error == VP8_ENC_ERROR_USER_ABORT) return fail(context, CB_CANCELLED, "cancelled");
        return fail(context, error == VP8_ENC_ERROR_OUT_OF_MEMORY ? CB_NO_MEMORY : CB_INVALID,
            "WebP: encoding failed (error %d)", (int)error);
    }
    out->data = sink.mem;
    out->size = sink.size;
    return CB_OK;
}
