#include "modules/documents/text_layout.hpp"

#include <pango/pangocairo.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <mutex>
#include <stdexcept>

namespace syndic {
namespace {

// The families tried in order for each character; fontconfig's own fallback follows them (it
// finds the Noto UI fonts for Devanagari, Bengali, Tamil, Thai...). DejaVu Sans: Latin with every
// French and Vietnamese accent, Greek, Cyrillic, Hebrew, Armenian, Georgian. WenQuanYi Micro Hei:
// Chinese (simplified and traditional), Japanese kana, Korean hangul.
constexpr const char* base_families = "DejaVu Sans, WenQuanYi Micro Hei";
// Arabic-script runs (Arabic, Persian, Urdu): Noto Sans Arabic UI draws them better than DejaVu
// Sans, which would otherwise take them as it comes first.
constexpr const char* arabic_families = "Noto Sans Arabic UI, DejaVu Sans, WenQuanYi Micro Hei";

// The text as pango may take it: valid UTF-8 (a bad byte becomes U+FFFD), tabs as spaces, and no
// other control character but '\n' (they print nothing).
std::string printable(const std::string& text) {
    gchar* valid = g_utf8_make_valid(text.data(), static_cast<gssize>(text.size()));
    std::string out;
    for (const gchar* p = valid; *p != '\0'; p = g_utf8_next_char(p)) {
        const gunichar c = g_utf8_get_char(p);
        if (c == '\t')
            out += ' ';
        else if (c == '\n' || !g_unichar_iscntrl(c))
            out.append(p, static_cast<std::size_t>(g_utf8_next_char(p) - p));
    }
    g_free(valid);
    return out;
}

bool arabic(gunichar c) { return g_unichar_get_script(c) == G_UNICODE_SCRIPT_ARABIC; }
// A character that may sit inside an Arabic run without ending it: spaces, joiners, marks.
bool joins_run(gunichar c) {
    const auto script = g_unichar_get_script(c);
    return c == ' ' || c == 0x200C || c == 0x200D || script == G_UNICODE_SCRIPT_INHERITED;
}

// The Arabic-script runs of the text (byte ranges), each to be set in arabic_families.
PangoAttrList* arabic_runs(const std::string& text) {
    PangoAttrList* list = pango_attr_list_new();
    // Pango would otherwise add a hyphen that is not in the name where it cuts a long word.
    pango_attr_list_insert(list, pango_attr_insert_hyphens_new(FALSE));
    long start = -1, end = -1;
    auto close = [&] {
        if (start < 0) return;
        PangoAttribute* family = pango_attr_family_new(arabic_families);
        family->start_index = static_cast<guint>(start);
        family->end_index = static_cast<guint>(end);
        pango_attr_list_insert(list, family);
        start = -1;
    };
    const char* begin = text.c_str();
    for (const char* p = begin; *p != '\0'; p = g_utf8_next_char(p)) {
        const gunichar c = g_utf8_get_char(p);
        const long at = p - begin;
        if (arabic(c)) {
            if (start < 0) start = at;
            end = g_utf8_next_char(p) - begin;
        } else if (!joins_run(c)) {
            close();
        }
    }
    close();
    return list;
}

}  // namespace

struct TextLayout::Pango {
    PangoContext* context = nullptr;
    PangoLayout* layout = nullptr;
    PangoFontDescription* font = nullptr;
    ~Pango() {
        if (font) pango_font_description_free(font);
        if (layout) g_object_unref(layout);
        if (context) g_object_unref(context);
    }
};

// One font map for the process, kept to its end (fontconfig's patterns stay reachable, and the
// fonts load once); pango objects are not thread-safe, so a TextLayout holds the font map's lock
// for its life: minutes written by several workers at once are laid out one after the other.
std::mutex& font_map_mutex() {
    static std::mutex mutex;
    return mutex;
}
PangoFontMap* font_map() {
    static PangoFontMap* const map = pango_cairo_font_map_new();
    return map;
}

// The context takes the PDF surface's font options (no hinting of metrics, so widths are exact).
TextLayout::TextLayout(cairo_t* cr) : cr_(cr), lock_(font_map_mutex()), pango_(std::make_unique<Pango>()) {
    pango_->context = pango_font_map_create_context(font_map());
    pango_cairo_update_context(cr, pango_->context);
    pango_context_set_round_glyph_positions(pango_->context, FALSE);
    // The minutes are French or English: each line starts at the left margin, and a Hebrew or
    // Arabic name inside it reads right to left within the line.
    pango_context_set_base_dir(pango_->context, PANGO_DIRECTION_LTR);
    pango_->layout = pango_layout_new(pango_->context);
    pango_layout_set_auto_dir(pango_->layout, FALSE);
    pango_->font = pango_font_description_from_string(base_families);

    PangoFontDescription* base = pango_font_description_from_string("DejaVu Sans");
    PangoFont* found = pango_font_map_load_font(pango_context_get_font_map(pango_->context), pango_->context, base);
    pango_font_description_free(base);
    std::string family;
    if (found) {
        PangoFontDescription* described = pango_font_describe(found);
        if (const char* f = pango_font_description_get_family(described)) family = f;
        pango_font_description_free(described);
        g_object_unref(found);
    }
    if (family != "DejaVu Sans") throw std::runtime_error("font missing: DejaVu Sans (install fonts-dejavu-core)");
}

TextLayout::~TextLayout() = default;

void TextLayout::set(TextStyle style, const std::string& text, double width) {
    pango_cairo_update_context(cr_, pango_->context);  // the current transformation (the watermark's turn)
    pango_font_description_set_weight(pango_->font, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(pango_->font, style.size * PANGO_SCALE);
    pango_layout_set_font_description(pango_->layout, pango_->font);
    const auto clean = printable(text);
    pango_layout_set_text(pango_->layout, clean.c_str(), static_cast<int>(clean.size()));
    PangoAttrList* attributes = arabic_runs(clean);
    pango_layout_set_attributes(pango_->layout, attributes);
    pango_attr_list_unref(attributes);
    pango_layout_set_width(pango_->layout, width > 0 ? static_cast<int>(std::floor(width * PANGO_SCALE)) : -1);
    pango_layout_set_wrap(pango_->layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_ellipsize(pango_->layout, PANGO_ELLIPSIZE_NONE);
}

double TextLayout::width(TextStyle style, const std::string& text) {
    set(style, text, 0);
    PangoRectangle logical;
    pango_layout_get_extents(pango_->layout, nullptr, &logical);
    return static_cast<double>(logical.width) / PANGO_SCALE;
}

std::vector<std::string> TextLayout::wrap(TextStyle style, const std::string& text, double width) {
    set(style, text, width);
    const std::string laid = pango_layout_get_text(pango_->layout);
    std::vector<std::string> lines;
    for (GSList* l = pango_layout_get_lines_readonly(pango_->layout); l != nullptr; l = l->next) {
        const auto* line = static_cast<PangoLayoutLine*>(l->data);
        std::string piece = laid.substr(static_cast<std::size_t>(line->start_index), static_cast<std::size_t>(line->length));
        while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\n')) piece.pop_back();
        lines.push_back(std::move(piece));
    }
    if (lines.empty()) lines.emplace_back();
    return lines;
}

void TextLayout::draw(TextStyle style, double x, double baseline, const std::string& text, double gray, double max_width) {
    set(style, text, max_width);
    if (max_width > 0) pango_layout_set_ellipsize(pango_->layout, PANGO_ELLIPSIZE_END);
    if (const int unknown = pango_layout_get_unknown_glyphs_count(pango_->layout); unknown > 0)
        spdlog::warn("PDF text: {} character(s) no installed font covers, drawn as boxes (run tools/setup)", unknown);
    cairo_set_source_rgb(cr_, gray, gray, gray);
    cairo_move_to(cr_, x, baseline - static_cast<double>(pango_layout_get_baseline(pango_->layout)) / PANGO_SCALE);
    pango_cairo_show_layout(cr_, pango_->layout);
}

}  // namespace syndic
