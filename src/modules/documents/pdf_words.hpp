// A PDF being written for its reader, in French or English: its blocks added one by one, money, the
// colon and words as that reader writes them. What the modules that write paged documents from
// their records share (the financial statements, the logbook's yearly update). Knows layout blocks
// and reader formats; not the records.
#pragma once
#include <cstdint>
#include <string>

#include "core/reader_format.hpp"
#include "modules/documents/pdf_writer.hpp"

namespace syndic {

struct PdfWords {
    PdfDocument doc;
    std::string language;  // "fr" or "en"
    bool en() const { return language == "en"; }
    std::string colon() const { return en() ? ": " : "\u00a0: "; }
    std::string money(std::int64_t cents) const { return format_money(cents, language); }
    std::string t(const char* fr, const char* en_text) const { return en() ? en_text : fr; }
    void add(PdfBlock::Kind kind, std::string text, bool keep = false) { doc.blocks.push_back({kind, std::move(text), keep}); }
    // "Page 2 de 5" / "Page 2 of 5" at the foot of every page.
    void number_pages() {
        const bool english = en();
        doc.page_label = [english](int page, int pages) { return "Page " + std::to_string(page) + (english ? " of " : " de ") + std::to_string(pages); };
    }
};

}  // namespace syndic
