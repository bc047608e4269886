/* librsvg on cairo (Debian: librsvg2-dev): an SVG document rasterized to PNG bytes. */
#ifndef LAYOUTD_RSVG_SHIM_H
#define LAYOUTD_RSVG_SHIM_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <librsvg/rsvg.h>
#include <cairo.h>

struct layoutd_png { uint8_t *bytes; size_t count, capacity; };

static cairo_status_t layoutd_png_write(void *closure, const unsigned char *data, unsigned int length) {
    struct layoutd_png *out = closure;
    if (out->count + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity * 2 : 65536;
        while (capacity < out->count + length) capacity *= 2;
        uint8_t *grown = realloc(out->bytes, capacity);
        if (!grown) return CAIRO_STATUS_NO_MEMORY;
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->count, data, length);
    out->count += length;
    return CAIRO_STATUS_SUCCESS;
}

/* The SVG drawn on white at `width` x `height` pixels (its own size times the scale). Returns
 * 0 and the PNG in *png (free it with free), or -1 and a message in *error (free it too). */
static inline int layoutd_svg_to_png(const uint8_t *svg, size_t length, int width, int height,
                                     uint8_t **png, size_t *png_length, char **error) {
    GError *failure = NULL;
    *png = NULL; *png_length = 0; *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data(svg, length, &failure);
    if (!handle) {
        *error = strdup(failure ? failure->message : "librsvg could not read the SVG");
        if (failure) g_error_free(failure);
        return -1;
    }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    RsvgRectangle viewport = {0, 0, (double)width, (double)height};
    int ok = rsvg_handle_render_document(handle, cr, &viewport, &failure);
    cairo_destroy(cr);
    g_object_unref(handle);
    struct layoutd_png out = {NULL, 0, 0};
    if (ok && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        && cairo_surface_write_to_png_stream(surface, layoutd_png_write, &out) == CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        *png = out.bytes;
        *png_length = out.count;
        return 0;
    }
    cairo_surface_destroy(surface);
    free(out.bytes);
    *error = strdup(failure ? failure->message : "cairo could not draw or encode the picture");
    if (failure) g_error_free(failure);
    return -1;
}
#endif
