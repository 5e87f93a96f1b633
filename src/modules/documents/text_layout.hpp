// Measures, breaks and draws text on a cairo context with pango: HarfBuzz shaping (joined Arabic
// letters), bidi ordering (Hebrew and Arabic names inside French lines), and a font per character
// chosen through fontconfig (DejaVu Sans, then Noto for Arabic and Indic scripts, WenQuanYi for
// CJK). Knows fonts and scripts, not pages, blocks or documents. Keeps pango out of its header.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using cairo_t = struct _cairo;

namespace syndic {

struct TextStyle {
    bool bold;
    double size;  // in points
};

class TextLayout {
public:
    // Throws std::runtime_error when fontconfig has no DejaVu Sans (the base font).
    explicit TextLayout(cairo_t* cr);
    ~TextLayout();
    TextLayout(const TextLayout&) = delete;
    TextLayout& operator=(const TextLayout&) = delete;

    // The width of the text on one line, in points.
    double width(TextStyle style, const std::string& text);
    // The text broken into lines no wider than `width`: where the script allows a break (between
    // words; between ideographs), inside a word only when it cannot fit alone, and at every '\n'.
    std::vector<std::string> wrap(TextStyle style, const std::string& text, double width);
    // Draws the text on one line, its baseline at (x, baseline), in the given gray. A positive
    // `max_width` cuts a longer text with "…".
    void draw(TextStyle style, double x, double baseline, const std::string& text, double gray,
              double max_width = 0);

private:
    struct Pango;
    void set(TextStyle style, const std::string& text, double width);
    cairo_t* cr_;
    std::unique_lock<std::mutex> lock_;  // the process-wide font map, for this layout's life
    std::unique_ptr<Pango> pango_;
};

}  // namespace syndic
