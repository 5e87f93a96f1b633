// Writes simple paged documents (minutes, later notices and statements) as PDF with cairo:
// titles, headings, wrapped paragraphs flowing onto further pages, page numbers and an optional
// watermark on every page; text laid out by text_layout (any script, fonts subset and embedded
// with their Unicode maps, so names print, copy and search right). Knows layout, not meetings.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace syndic {

struct PdfBlock {
    enum class Kind { title, subtitle, heading, subheading, paragraph, item, numbered, spacer };
    Kind kind;
    std::string text;  // UTF-8
    // Starts on the same page as the block after it (headings always do): a run of such blocks
    // and the first two lines of the block ending it move to the next page together when they do
    // not fit at the foot of this one (unless the run is longer than a page).
    bool keep_with_next = false;
};

struct PdfDocument {
    std::vector<PdfBlock> blocks;
    std::string watermark;                                 // e.g. "BROUILLON"; empty for none
    std::string banner;                                    // a line atop every page; empty for none
    std::string footer;                                    // left of every page's footer
    std::function<std::string(int page, int pages)> page_label;  // right of the footer
    std::string pdf_title;
    std::string pdf_subject;
};

// `text` (a value someone typed: a name, a title, a place) as a bidi isolate, U+2068 ... U+2069:
// its direction neither takes from nor spills onto the words and figures around it, so a Hebrew
// or Arabic name followed by " — 10 %" keeps the figure after the name. The marks print nothing.
inline std::string bidi_isolate(const std::string& text) { return "\u2068" + text + "\u2069"; }

struct RenderedPdf {
    std::string bytes;  // the whole PDF file
    int pages = 0;
};

// Lays the document out in memory with the renderer module (syndic-pdf.so, loaded on the first
// call). Throws std::runtime_error when the fonts are missing, or "PDF rendering unavailable: ..."
// with the loader's reason when the module cannot be loaded.
RenderedPdf render_pdf(const PdfDocument& document);

// Renders the document and writes it to `path` durably (storage/durable_file.hpp); returns its
// number of pages. A write failure is DomainError STORAGE_FULL or STORAGE_UNAVAILABLE.
int write_pdf(const PdfDocument& document, const std::string& path);

}  // namespace syndic
