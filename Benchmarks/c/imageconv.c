/* The raw library calls a PNG ↔ JPEG conversion needs, for the codec benchmark's floor: libpng's simplified
 * API and libjpeg-turbo, file to stdout, no checks beyond the libraries' own.
 *   imageconv png2jpg IN.png > OUT.jpg     (quality 90, 4:2:0, as ClipBridge's default)
 *   imageconv jpg2png IN.jpg > OUT.png */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <jpeglib.h>

static int png_to_jpeg(const char *path) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) { fprintf(stderr, "%s\n", image.message); return 1; }
    image.format = PNG_FORMAT_RGB;
    png_bytep pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) { fprintf(stderr, "%s\n", image.message); return 1; }
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr errors;
    info.err = jpeg_std_error(&errors);
    jpeg_create_compress(&info);
    jpeg_stdio_dest(&info, stdout);
    info.image_width = image.width;
    info.image_height = image.height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, 90, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = pixels + (size_t)info.next_scanline * image.width * 3;
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(pixels);
    return 0;
}

static int jpeg_to_png(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); return 1; }
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    info.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    unsigned char *pixels = malloc(stride * info.output_height);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + info.output_scanline * stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = info.output_width;
    image.height = info.output_height;
    image.format = PNG_FORMAT_RGB;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    fclose(file);
    if (!png_image_write_to_stdio(&image, stdout, 0, pixels, 0, NULL)) { fprintf(stderr, "%s\n", image.message); return 1; }
    free(pixels);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: imageconv png2jpg|jpg2png FILE\n"); return 2; }
    if (strcmp(argv[1], "png2jpg") == 0) return png_to_jpeg(argv[2]);
    if (strcmp(argv[1], "jpg2png") == 0) return jpeg_to_png(argv[2]);
    fprintf(stderr, "usage: imageconv png2jpg|jpg2png FILE\n");
    return 2;
}
