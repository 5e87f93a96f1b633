#include "modules/documents/pdf_writer.hpp"

#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "storage/durable_file.hpp"

namespace syndic {
namespace {

constexpr const char* regular_font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* bold_font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

constexpr double page_width = 612, page_height = 792;  // US Letter, as used in Quebec, in points
constexpr double margin = 64, footer_baseline = page_height - 36, body_top = margin, body_bottom = page_height - margin - 10;

struct Style {
    bool bold;
    double size;
    double indent;
    double space_before;
};

Style style_of(PdfBlock::Kind kind) {
    switch (kind) {
        case PdfBlock::Kind::title: return {true, 17, 0, 0};
        case PdfBlock::Kind::subtitle: return {false, 11, 0, 4};
        case PdfBlock::Kind::heading: return {true, 13, 0, 16};
        case PdfBlock::Kind::subheading: return {true, 11, 0, 10};
        case PdfBlock::Kind::paragraph: return {false, 10, 0, 4};
        case PdfBlock::Kind::item: return {false, 10, 14, 2};
        case PdfBlock::Kind::numbered: return {false, 10, 14, 2};
        case PdfBlock::Kind::spacer: return {false, 10, 0, 6};
    }
    return {false, 10, 0, 4};
}

// The length in bytes of the UTF-8 character that starts at s[i].
std::size_t char_length(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    return std::min(n, s.size() - i);
}

// A TrueType file as a cairo font face, through FreeType (no font configuration involved); the
// FreeType face lives as long as cairo keeps the font face.
// FreeType's library object is not thread-safe: creating and freeing faces (minutes written by
// several HTTP workers at once) take this lock. Recursive, as cairo may free a face while one is
// being made.
std::recursive_mutex& freetype_mutex() {
    static std::recursive_mutex mutex;
    return mutex;
}

cairo_font_face_t* load_font(const char* file) {
    static FT_Library library = [] {
        FT_Library l = nullptr;
        if (FT_Init_FreeType(&l) != 0) throw std::runtime_error("FreeType could not start");
        return l;
    }();
    std::lock_guard lock(freetype_mutex());
    if (!std::filesystem::exists(file))
        throw std::runtime_error(std::string("font missing: ") + file + " (install fonts-dejavu-core)");
    FT_Face face = nullptr;
    if (FT_New_Face(library, file, 0, &face) != 0) throw std::runtime_error(std::string("cannot read the font ") + file);
    cairo_font_face_t* font = cairo_ft_font_face_create_for_ft_face(face, 0);
    static const cairo_user_data_key_t key{};
    if (cairo_font_face_set_user_data(font, &key, face, [](void* f) {
            std::lock_guard done(freetype_mutex());
            FT_Done_Face(static_cast<FT_Face>(f));
        }) !=
        CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(font);
        FT_Done_Face(face);
        throw std::runtime_error("cannot keep the font face");
    }
    return font;
}

// cairo's output callback: the PDF is built in memory, then written to disk whole (durable_file).
cairo_status_t append_to(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

struct Line {
    int page;
    double x, baseline;
    bool bold;
    double size;
    std::string text;
};

class Writer {
public:
    Writer(const PdfDocument& doc, std::string& out)
        : doc_(doc),
          surface_(cairo_pdf_surface_create_for_stream(append_to, &out, page_width, page_height)),
          cr_(cairo_create(surface_)),
          regular_(load_font(regular_font_file)),
          bold_(load_font(bold_font_file)) {
        if (!doc.pdf_title.empty()) cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_TITLE, doc.pdf_title.c_str());
        if (!doc.pdf_subject.empty()) cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_SUBJECT, doc.pdf_subject.c_str());
        cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_CREATOR, "syndic-mcp");
    }
    ~Writer() {
        cairo_destroy(cr_);
        cairo_surface_destroy(surface_);
        cairo_font_face_destroy(regular_);
        cairo_font_face_destroy(bold_);
    }

    // Lays every block out first (so the number of pages is known), then draws page by page.
    int write() {
        for (const auto& block : doc_.blocks) place(block);
        const int pages = page_ + 1;
        std::size_t next = 0;
        for (int page = 0; page < pages; ++page) {
            if (!doc_.watermark.empty()) watermark();
            if (!doc_.banner.empty()) text_at(true, 9, margin, 30, doc_.banner, 0.55);
            for (; next < lines_.size() && lines_[next].page == page; ++next) {
                const auto& l = lines_[next];
                text_at(l.bold, l.size, l.x, l.baseline, l.text, 0);
            }
            footer(page + 1, pages);
            cairo_show_page(cr_);
        }
        cairo_surface_finish(surface_);
        if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS)
            throw std::runtime_error(std::string("PDF error: ") + cairo_status_to_string(cairo_surface_status(surface_)));
        return pages;
    }

private:
    void use(bool bold, double size) {
        cairo_set_font_face(cr_, bold ? bold_ : regular_);
        cairo_set_font_size(cr_, size);
    }

    double width_of(bool bold, double size, const std::string& text) {
        use(bold, size);
        cairo_text_extents_t e;
        cairo_text_extents(cr_, text.c_str(), &e);
        return e.x_advance;
    }

    void text_at(bool bold, double size, double x, double baseline, const std::string& text, double gray) {
        use(bold, size);
        cairo_set_source_rgb(cr_, gray, gray, gray);
        cairo_move_to(cr_, x, baseline);
        cairo_show_text(cr_, text.c_str());
    }

    // Breaks text into lines no wider than `width`: at spaces, and inside words too long to fit.
    std::vector<std::string> wrap(bool bold, double size, const std::string& text, double width) {
        std::vector<std::string> lines;
        std::string line, word;
        auto flush_word = [&] {
            if (word.empty()) return;
            const std::string candidate = line.empty() ? word : line + " " + word;
            if (width_of(bold, size, candidate) <= width) {
                line = candidate;
            } else {
                if (!line.empty()) lines.push_back(line);
                line.clear();
                std::string piece;  // a word wider than the line is cut, character by character
                for (std::size_t i = 0; i < word.size();) {
                    const auto n = char_length(word, i);
                    const std::string next = piece + word.substr(i, n);
                    if (!piece.empty() && width_of(bold, size, next) > width) {
                        lines.push_back(piece);
                        piece = word.substr(i, n);
                    } else {
                        piece = next;
                    }
                    i += n;
                }
                line = piece;
            }
            word.clear();
        };
        for (char c : text) {
            if (c == '\r' || c == '\f' || c == '\v' || (c > 0 && c < 0x20 && c != '\n' && c != '\t') || c == 0) {
                continue;  // control characters print nothing (and a NUL would end the text for cairo)
            } else if (c == ' ' || c == '\t') {
                flush_word();
            } else if (c == '\n') {
                flush_word();
                lines.push_back(line);
                line.clear();
            } else {
                word += c;
            }
        }
        flush_word();
        lines.push_back(line);
        return lines;
    }

    void place(const PdfBlock& block) {
        const Style s = style_of(block.kind);
        const double line_height = s.size * 1.35;
        y_ += s.space_before;
        if (block.kind == PdfBlock::Kind::spacer) return;
        const double x = margin + s.indent;
        const auto lines = wrap(s.bold, s.size, block.kind == PdfBlock::Kind::item ? "• " + block.text : block.text,
                                page_width - margin - x);
        // A heading never stays alone at the foot of a page.
        const bool heading = block.kind == PdfBlock::Kind::heading || block.kind == PdfBlock::Kind::subheading;
        if (y_ + (heading ? line_height * 3 : line_height) > body_bottom) new_page();
        for (const auto& text : lines) {
            if (y_ + line_height > body_bottom) new_page();
            y_ += line_height;
            lines_.push_back({page_, x, y_, s.bold, s.size, text});
        }
    }

    void new_page() {
        ++page_;
        y_ = body_top;
    }

    // The text cut (with "…") to fit the width.
    std::string fitted(bool bold, double size, const std::string& text, double width) {
        if (width_of(bold, size, text) <= width) return text;
        std::string cut;
        for (std::size_t i = 0; i < text.size();) {
            const auto n = char_length(text, i);
            if (width_of(bold, size, cut + text.substr(i, n) + "…") > width) break;
            cut += text.substr(i, n);
            i += n;
        }
        return cut + "…";
    }

    void footer(int page, int pages) {
        double label_width = 0;
        if (doc_.page_label) {
            const auto label = doc_.page_label(page, pages);
            label_width = width_of(false, 8, label);
            text_at(false, 8, page_width - margin - label_width, footer_baseline, label, 0.4);
        }
        if (!doc_.footer.empty())
            text_at(false, 8, margin, footer_baseline,
                    fitted(false, 8, doc_.footer, page_width - 2 * margin - label_width - 16), 0.4);
    }

    void watermark() {
        const double size = 72;
        const double w = width_of(true, size, doc_.watermark);
        cairo_save(cr_);
        cairo_translate(cr_, page_width / 2, page_height / 2);
        cairo_rotate(cr_, -M_PI / 4);
        use(true, size);
        cairo_set_source_rgb(cr_, 0.85, 0.85, 0.85);
        cairo_move_to(cr_, -w / 2, size / 3);
        cairo_show_text(cr_, doc_.watermark.c_str());
        cairo_restore(cr_);
    }

    const PdfDocument& doc_;
    cairo_surface_t* surface_;
    cairo_t* cr_;
    cairo_font_face_t* regular_;
    cairo_font_face_t* bold_;
    std::vector<Line> lines_;
    int page_ = 0;
    double y_ = body_top;
};

}  // namespace

RenderedPdf render_pdf(const PdfDocument& document) {
    RenderedPdf pdf;
    Writer writer(document, pdf.bytes);
    pdf.pages = writer.write();
    return pdf;
}

int write_pdf(const PdfDocument& document, const std::string& path) {
    const auto pdf = render_pdf(document);
    write_file_durably(path, pdf.bytes, FileCheck::pdf, std::filesystem::path(path).filename().string());
    return pdf.pages;
}

}  // namespace syndic
