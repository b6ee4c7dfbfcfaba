// Umbrella header for the system image codecs: libpng, libjpeg-turbo, giflib, libtiff, libwebp. Nothing but
// includes lives here; the setjmp-based error handling those libraries need, which Swift cannot express, and
// their loading on first use are in CImageShims.
#include <stdio.h>
#include <png.h>
#include <jpeglib.h>
#include <gif_lib.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <webp/encode.h>
