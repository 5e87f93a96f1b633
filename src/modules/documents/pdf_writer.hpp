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

// Writes the document to `path` (creating its folder) and returns its number of pages. Throws
// std::runtime_error when the fonts are missing or the file cannot be written.
int write_pdf(const PdfDocument& document, const std::string& path);

}  // namespace syndic
