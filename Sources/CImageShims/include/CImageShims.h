// The C side of ImageCodecs: calls into libpng, libjpeg-turbo, giflib, libtiff and libwebp with the error
// handling those libraries need (libpng and libjpeg report errors by longjmp, which Swift cannot express),
// from memory to memory, bounded and cancellable. Only standard C types cross this header; the libraries'
// own headers stay inside shims.c.
//
// Pixels are always RGBA, row-major with no padding, straight (not premultiplied) alpha: 8 bits per channel,
// or 16 bits per channel in host byte order.
#ifndef CIMAGESHIMS_H
#define CIMAGESHIMS_H

#include <stddef.h>
#include <stdint.h>

/// A decoded image. `pixels` is malloc'd by the decoder and freed with cb_free.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 8 or 16 bits per channel.
    uint32_t bits;
    /// Nonzero when the source had an alpha channel or a transparent colour.
    uint32_t has_alpha;
    /// The TIFF/EXIF orientation (1–8) still to be applied to the rows as stored; 0 or 1 when none.
    uint32_t orientation;
    uint8_t *pixels;
} cb_pixels;

/// Bytes produced by an encoder, malloc'd, freed with cb_free.
typedef struct {
    uint8_t *data;
    size_t size;
} cb_bytes;

/// What every call gets: the pixel cap, a cancellation flag polled between rows, and room for the error.
typedef struct {
    /// Largest width × height accepted; checked from the header, before any pixel buffer is allocated.
    uint64_t max_pixels;
    /// Set to nonzero (cb_cancel) from another thread to stop the call at the next row.
    int cancelled;
    /// Progressive JPEG scans accepted (libjpeg-turbo's advice against scan-count denial of service).
    int max_scans;
    /// Nonzero: 16-bit samples are scaled to 8 bits while decoding (no 16-bit buffer is ever allocated).
    int eight_bit;
    /// The error message when a call returns nonzero.
    char message[256];
} cb_context;

/// Result codes.
enum {
    CB_OK = 0,
    /// The data is corrupt, truncated or in an unsupported variant of the format.
    CB_INVALID = 1,
    /// The image is larger than `max_pixels` (or its buffer would overflow).
    CB_TOO_LARGE = 2,
    /// cb_cancel was called.
    CB_CANCELLED = 3,
    /// Memory could not be allocated.
    CB_NO_MEMORY = 4,
    /// The format's system library could not be loaded (it is loaded on first use).
    CB_UNAVAILABLE = 5,
};

void cb_cancel(cb_context *context);
void cb_free(void *pointer);

int cb_png_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out);
int cb_jpeg_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out);
/// The first frame of a GIF on its logical screen (callers refuse animated GIFs before calling).
int cb_gif_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out);
/// The first directory (page) of a TIFF, 8 bits per channel, oriented top-left.
int cb_tiff_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out);
int cb_webp_decode(const uint8_t *data, size_t size, cb_context *context, cb_pixels *out);

int cb_png_encode(const cb_pixels *in, cb_context *context, cb_bytes *out);
/// Opaque RGB; callers flatten alpha first. 8 bits per channel only.
int cb_jpeg_encode(const cb_pixels *in, int quality, cb_context *context, cb_bytes *out);
/// LZW with horizontal differencing; RGB or RGBA (unassociated alpha), 8 or 16 bits per channel.
int cb_tiff_encode(const cb_pixels *in, cb_context *context, cb_bytes *out);
/// 8 bits per channel only; `lossless` nonzero for VP8L, else lossy at `quality`.
int cb_webp_encode(const cb_pixels *in, int quality, int lossless, cb_context *context, cb_bytes *out);

#endif
