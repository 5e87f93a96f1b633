// The PDF renderer, built as a module of its own (syndic-pdf.so, loaded by pdf_writer.cpp on the
// first PDF): cairo, pango, HarfBuzz, fontconfig and their chain load only in a process that renders.
#include "modules/documents/pdf_writer.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "modules/documents/text_layout.hpp"

namespace syndic {
namespace {

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
          text_(cr_) {
        if (!doc.pdf_title.empty()) cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_TITLE, doc.pdf_title.c_str());
        if (!doc.pdf_subject.empty()) cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_SUBJECT, doc.pdf_subject.c_str());
        cairo_pdf_surface_set_metadata(surface_, CAIRO_PDF_METADATA_CREATOR, "syndic-mcp");
    }
    ~Writer() {
        cairo_destroy(cr_);
        cairo_surface_destroy(surface_);
    }

    // Lays every block out first (so the number of pages is known), then draws page by page.
    int write() {
        for (const auto& block : doc_.blocks) wrapped_.push_back(wrap(block));
        for (std::size_t i = 0; i < doc_.blocks.size(); ++i) place(i);
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
    double width_of(bool bold, double size, const std::string& text) { return text_.width({bold, size}, text); }

    void text_at(bool bold, double size, double x, double baseline, const std::string& text, double gray,
                 double max_width = 0) {
        text_.draw({bold, size}, x, baseline, text, gray, max_width);
    }

    static double line_height_of(const Style& s) { return s.size * 1.35; }

    std::vector<std::string> wrap(const PdfBlock& block) {
        if (block.kind == PdfBlock::Kind::spacer) return {};
        const Style s = style_of(block.kind);
        const double x = margin + s.indent;
        return text_.wrap({s.bold, s.size}, block.kind == PdfBlock::Kind::item ? "• " + block.text : block.text,
                          page_width - margin - x);
    }

    static bool keeps_with_next(const PdfBlock& block) {
        return block.keep_with_next || block.kind == PdfBlock::Kind::heading || block.kind == PdfBlock::Kind::subheading;
    }

    // The height of block i's space before and of its first `lines` lines.
    double height_of(std::size_t i, std::size_t lines) const {
        const Style s = style_of(doc_.blocks[i].kind);
        return s.space_before + line_height_of(s) * static_cast<double>(std::min(lines, wrapped_[i].size()));
    }

    // What must stand on one page from block i: the blocks kept with their next, whole, and the
    // first two lines of the block that ends the run.
    double kept_height(std::size_t i) const {
        double h = 0;
        for (std::size_t j = i; j < doc_.blocks.size(); ++j) {
            const bool keeps = keeps_with_next(doc_.blocks[j]);
            h += height_of(j, keeps ? wrapped_[j].size() : 2);
            if (!keeps) break;
        }
        return h;
    }

    void place(std::size_t i) {
        const PdfBlock& block = doc_.blocks[i];
        const Style s = style_of(block.kind);
        const double line_height = line_height_of(s);
        // A heading (or any block kept with its next) is never left alone at the foot of a page:
        // its run moves to the next page when it does not fit whole here but would on a page.
        const bool run_starts = keeps_with_next(block) && (i == 0 || !keeps_with_next(doc_.blocks[i - 1]));
        if (run_starts && y_ > body_top) {
            const double run = kept_height(i);
            if (y_ + run > body_bottom && run <= body_bottom - body_top) new_page();
        }
        y_ += s.space_before;
        if (block.kind == PdfBlock::Kind::spacer) return;
        const double x = margin + s.indent;
        // A run longer than a page: each heading keeps at least two lines after it.
        const bool heading = block.kind == PdfBlock::Kind::heading || block.kind == PdfBlock::Kind::subheading;
        if (y_ + (heading ? line_height * 3 : line_height) > body_bottom) new_page();
        for (const auto& text : wrapped_[i]) {
            if (y_ + line_height > body_bottom) new_page();
            y_ += line_height;
            lines_.push_back({page_, x, y_, s.bold, s.size, text});
        }
    }

    void new_page() {
        ++page_;
        y_ = body_top;
    }

    void footer(int page, int pages) {
        double label_width = 0;
        if (doc_.page_label) {
            const auto label = doc_.page_label(page, pages);
            label_width = width_of(false, 8, label);
            text_at(false, 8, page_width - margin - label_width, footer_baseline, label, 0.4);
        }
        if (!doc_.footer.empty())
            text_at(false, 8, margin, footer_baseline, doc_.footer, 0.4, page_width - 2 * margin - label_width - 16);
    }

    void watermark() {
        const double size = 72;
        const double w = width_of(true, size, doc_.watermark);
        cairo_save(cr_);
        cairo_translate(cr_, page_width / 2, page_height / 2);
        cairo_rotate(cr_, -M_PI / 4);
        text_at(true, size, -w / 2, size / 3, doc_.watermark, 0.85);
        cairo_restore(cr_);
    }

    const PdfDocument& doc_;
    cairo_surface_t* surface_;
    cairo_t* cr_;
    TextLayout text_;
    std::vector<std::vector<std::string>> wrapped_;  // each block's lines, in order
    std::vector<Line> lines_;
    int page_ = 0;
    double y_ = body_top;
};

}  // namespace

}  // namespace syndic

// The module's one entry point (pdf_writer.cpp finds it by this name): lays `document` out into
// `out`. Exceptions (missing fonts, a cairo error) reach the caller, which shares this libstdc++.
extern "C" __attribute__((visibility("default"))) void syndic_render_pdf(const syndic::PdfDocument* document,
                                                                          syndic::RenderedPdf* out) {
    syndic::Writer writer(*document, out->bytes);
    out->pages = writer.write();
}
