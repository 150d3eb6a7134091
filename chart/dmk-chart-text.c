/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text through Cairo's toy font API: no Pango, so the headless CLI can
 * link the renderer without GLib. The face is each system's own sans
 * font: DejaVu Sans is on every Linux desktop (fontconfig falls back to
 * another sans where it is missing), Segoe UI on every Windows since
 * Vista, which has no DejaVu (GDI's font mapper takes the nearest face
 * where it is missing, as Wine's Tahoma). */
#include "dmk-chart-private.h"

#include <stdio.h>
#include <string.h>

#ifdef _WIN32
#define CHART_FACE "Segoe UI"
#else
#define CHART_FACE "DejaVu Sans"
#endif

void dmk_chart_font(cairo_t *cr, double size, DmkTextWeight weight)
{
    cairo_select_font_face(cr, CHART_FACE, CAIRO_FONT_SLANT_NORMAL,
                           weight == DMK_TEXT_BOLD ? CAIRO_FONT_WEIGHT_BOLD
                                                   : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double dmk_chart_text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

double dmk_chart_line_height(cairo_t *cr)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    return fe.ascent + fe.descent;
}

void dmk_chart_text(cairo_t *cr, double x, double y, double ha, double va, const char *s)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    double w = dmk_chart_text_width(cr, s);
    double h = fe.ascent + fe.descent;
    cairo_move_to(cr, x - w * ha, y - h * va + fe.ascent);
    cairo_show_text(cr, s);
    cairo_new_path(cr);
}

/* Length of the longest prefix of s, at most max bytes, that does not cut
 * a UTF-8 sequence. */
static size_t utf8_prefix(const char *s, size_t max)
{
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return max;
}

void dmk_chart_ellipsize(cairo_t *cr, const char *s, double max_w, char *out, size_t len)
{
    static const char ellipsis[] = "\xE2\x80\xA6"; /* U+2026 */
    if (len == 0)
        return;
    snprintf(out, len, "%s", s ? s : "");
    if (dmk_chart_text_width(cr, out) <= max_w)
        return;
    size_t n = strlen(out);
    /* Binary search on the byte length: text width grows with it. */
    size_t lo = 0, hi = n;
    char tmp[512];
    while (lo < hi) {
        size_t mid = utf8_prefix(out, (lo + hi + 1) / 2);
        if (mid <= lo) {
            /* No UTF-8 boundary between lo and hi other than lo. */
            break;
        }
        snprintf(tmp, sizeof tmp, "%.*s%s", (int)mid, out, ellipsis);
        if (dmk_chart_text_width(cr, tmp) <= max_w)
            lo = mid;
        else
            hi = mid - 1;
    }
    lo = utf8_prefix(out, lo);
    while (lo > 0 && out[lo - 1] == ' ')
        lo--;
    snprintf(tmp, sizeof tmp, "%.*s%s", (int)lo, out, ellipsis);
    snprintf(out, len, "%s", tmp);
}
