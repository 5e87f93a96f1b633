// Writes simple paged documents (minutes, later notices and statements) as PDF with cairo:
// titles, headings, wrapped paragraphs flowing onto further pages, page numbers and an optional
// watermark on every page, in DejaVu Sans (subset and embedded, with its Unicode map, so French
// accents print, copy and search right). Knows layout, not meetings.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace syndic {

struct PdfBlock {
    enum class Kind { title, subtitle, heading, subheading, paragraph, item, numbered, spacer };
    Kind kind;
    std::string text;  // UTF-8
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

struct RenderedPdf {
    std::string bytes;  // the whole PDF file
    int pages = 0;
};

// Lays the document out in memory. Throws std::runtime_error when the fonts are missing.
RenderedPdf render_pdf(const PdfDocument& document);

// Renders the document and writes it to `path` durably (storage/durable_file.hpp); returns its
// number of pages. A write failure is DomainError STORAGE_FULL or STORAGE_UNAVAILABLE.
int write_pdf(const PdfDocument& document, const std::string& path);

}  // namespace syndic
