// The codecs' functions, reached through pointers filled the first time a format is used (dlopen of the system's
// library), so a process that converts no image maps none of them: before, every `clipbridge` process — a 16-byte
// paste too — loaded and relocated libpng, libjpeg, giflib, libtiff (and its zstd, lzma, Lerc, jbig, deflate) and
// libwebp at start-up. shims.c calls each as CB(name)(…); the lists below are every codec symbol it uses (check:
// `nm -u shims.c.o` names none of them).
#ifndef CB_CODEC_LIBRARY_H
#define CB_CODEC_LIBRARY_H

#include "CImageShims.h"

#include <stdio.h>
#include <png.h>
#include <jpeglib.h>
#include <gif_lib.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <webp/encode.h>

#define CB_PNG_FUNCTIONS(X) \
    X(png_create_info_struct) X(png_create_read_struct) X(png_create_write_struct) X(png_destroy_read_struct) \
    X(png_destroy_write_struct) X(png_error) X(png_get_bit_depth) X(png_get_color_type) X(png_get_error_ptr) \
    X(png_get_image_height) X(png_get_image_width) X(png_get_io_ptr) X(png_get_rowbytes) X(png_get_valid) \
    X(png_longjmp) X(png_read_info) X(png_read_row) X(png_read_update_info) X(png_set_IHDR) X(png_set_add_alpha) \
    X(png_set_chunk_cache_max) X(png_set_chunk_malloc_max) X(png_set_expand) X(png_set_filler) \
    X(png_set_gray_to_rgb) X(png_set_interlace_handling) X(png_set_longjmp_fn) X(png_set_read_fn) \
    X(png_set_scale_16) X(png_set_swap) X(png_set_write_fn) X(png_write_end) X(png_write_info) X(png_write_row)

#define CB_JPEG_FUNCTIONS(X) \
    X(jpeg_CreateCompress) X(jpeg_CreateDecompress) X(jpeg_destroy_compress) X(jpeg_destroy_decompress) \
    X(jpeg_finish_compress) X(jpeg_finish_decompress) X(jpeg_mem_dest) X(jpeg_mem_src) X(jpeg_read_header) \
    X(jpeg_read_scanlines) X(jpeg_set_defaults) X(jpeg_set_quality) X(jpeg_start_compress) \
    X(jpeg_start_decompress) X(jpeg_std_error) X(jpeg_write_scanlines)

#define CB_GIF_FUNCTIONS(X) \
    X(DGifCloseFile) X(DGifGetExtension) X(DGifGetExtensionNext) X(DGifGetImageDesc) X(DGifGetLine) \
    X(DGifGetRecordType) X(DGifOpen) X(GifErrorString)

#define CB_TIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) X(TIFFClose) X(TIFFDefaultStripSize) X(TIFFFlush) X(TIFFGetField) \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) X(TIFFRGBAImageGet) X(TIFFRGBAImageOK) X(TIFFSetField) X(TIFFWriteScanline)

// (WebPConfigInit, WebPPictureInit and WebPGetFeatures are inline functions of the headers around these.)
#define CB_WEBP_FUNCTIONS(X) \
    X(WebPConfigInitInternal) X(WebPEncode) X(WebPGetFeaturesInternal) X(WebPIAppend) X(WebPIDelete) \
    X(WebPINewRGB) X(WebPMemoryWrite) X(WebPMemoryWriterClear) X(WebPMemoryWriterInit) X(WebPPictureFree) \
    X(WebPPictureImportRGBA) X(WebPPictureImportRGBX) X(WebPPictureInitInternal)

#define CB_DECLARE_POINTER(name) extern __typeof__(name) *cb_lazy_##name;
CB_PNG_FUNCTIONS(CB_DECLARE_POINTER)
CB_JPEG_FUNCTIONS(CB_DECLARE_POINTER)
CB_GIF_FUNCTIONS(CB_DECLARE_POINTER)
CB_TIFF_FUNCTIONS(CB_DECLARE_POINTER)
CB_WEBP_FUNCTIONS(CB_DECLARE_POINTER)
#undef CB_DECLARE_POINTER

/// A codec function, through its pointer (valid once cb_load_codec returned CB_OK for its library).
#define CB(name) (*cb_lazy_##name)

/// The system libraries, by the soname of the version whose headers this is compiled against (Debian 12's).
typedef enum {
    CB_LIBRARY_PNG,
    CB_LIBRARY_JPEG,
    CB_LIBRARY_GIF,
    CB_LIBRARY_TIFF,
    CB_LIBRARY_WEBP,
    CB_LIBRARY_COUNT,
} cb_library;

/// Loads `library` and its functions, once per process (thread-safe). CB_OK, or CB_UNAVAILABLE with the reason
/// in `context->message` (the library is not installed, or lacks a function).
int cb_load_codec(cb_library library, cb_context *context);

#endif
