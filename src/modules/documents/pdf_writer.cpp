#include "modules/documents/pdf_writer.hpp"

#include <hpdf.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

namespace syndic {
namespace {

constexpr const char* regular_font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* bold_font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

constexpr float page_width = 612, page_height = 792;  // US Letter, as used in Quebec
constexpr float margin = 64, footer_y = 36, body_top = page_height - margin, body_bottom = margin + 10;

// libharu is C: its error handler only notes the first error (nothing is thrown through C
// frames); the writer checks it after each step that can fail.
struct ErrorNote {
    HPDF_STATUS error = HPDF_OK;
    HPDF_STATUS detail = 0;
};

void on_error(HPDF_STATUS error, HPDF_STATUS detail, void* user_data) {
    auto* note = static_cast<ErrorNote*>(user_data);
    if (note->error == HPDF_OK) *note = {error, detail};
}

struct Style {
    bool bold;
    float size;
    float indent;
    float space_before;
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

class Writer {
public:
    explicit Writer(const PdfDocument& doc) : doc_(doc), pdf_(HPDF_New(on_error, &note_)) {
        if (!pdf_) throw std::runtime_error("cannot create a PDF document");
        HPDF_UseUTFEncodings(pdf_);
        HPDF_SetCompressionMode(pdf_, HPDF_COMP_ALL);
        for (const char* file : {regular_font_file, bold_font_file})
            if (!std::filesystem::exists(file))
                throw std::runtime_error(std::string("font missing: ") + file + " (install fonts-dejavu-core)");
        regular_ = HPDF_GetFont(pdf_, HPDF_LoadTTFontFromFile(pdf_, regular_font_file, HPDF_TRUE), "UTF-8");
        bold_ = HPDF_GetFont(pdf_, HPDF_LoadTTFontFromFile(pdf_, bold_font_file, HPDF_TRUE), "UTF-8");
        check("loading the fonts");
        if (!doc.pdf_title.empty()) HPDF_SetInfoAttr(pdf_, HPDF_INFO_TITLE, doc.pdf_title.c_str());
        if (!doc.pdf_subject.empty()) HPDF_SetInfoAttr(pdf_, HPDF_INFO_SUBJECT, doc.pdf_subject.c_str());
        HPDF_SetInfoAttr(pdf_, HPDF_INFO_CREATOR, "syndic-mcp");
    }
    ~Writer() { HPDF_Free(pdf_); }

    int write(const std::string& path) {
        new_page();
        for (const auto& block : doc_.blocks) put(block);
        finish_pages();
        const auto folder = std::filesystem::path(path).parent_path();
        if (!folder.empty()) std::filesystem::create_directories(folder);
        const auto temporary = path + ".part";
        check("laying out the pages");
        HPDF_SaveToFile(pdf_, temporary.c_str());
        check("writing " + temporary);
        std::filesystem::rename(temporary, path);  // never a half-written file under the final name
        return static_cast<int>(pages_.size());
    }

private:
    void check(const std::string& step) {
        if (note_.error != HPDF_OK)
            throw std::runtime_error("PDF error " + std::to_string(note_.error) + "/" + std::to_string(note_.detail) +
                                     " while " + step);
    }

    void new_page() {
        page_ = HPDF_AddPage(pdf_);
        HPDF_Page_SetWidth(page_, page_width);
        HPDF_Page_SetHeight(page_, page_height);
        pages_.push_back(page_);
        y_ = body_top;
        if (!doc_.watermark.empty()) watermark();  // first, so the text prints over it
        if (!doc_.banner.empty()) {
            text_at(bold_, 9, margin, page_height - 30, doc_.banner, 0.55f);
        }
    }

    float width_of(HPDF_Font font, float size, const std::string& text) {
        HPDF_Page_SetFontAndSize(page_, font, size);
        return HPDF_Page_TextWidth(page_, text.c_str());
    }

    void text_at(HPDF_Font font, float size, float x, float y, const std::string& text, float gray = 0) {
        HPDF_Page_SetGrayFill(page_, gray);
        HPDF_Page_BeginText(page_);
        HPDF_Page_SetFontAndSize(page_, font, size);
        HPDF_Page_TextOut(page_, x, y, text.c_str());
        HPDF_Page_EndText(page_);
        HPDF_Page_SetGrayFill(page_, 0);
    }

    // Breaks text into lines no wider than `width`: at spaces, and inside words too long to fit.
    std::vector<std::string> wrap(HPDF_Font font, float size, const std::string& text, float width) {
        std::vector<std::string> lines;
        std::string line, word;
        auto flush_word = [&] {
            if (word.empty()) return;
            const std::string candidate = line.empty() ? word : line + " " + word;
            if (width_of(font, size, candidate) <= width) {
                line = candidate;
            } else {
                if (!line.empty()) lines.push_back(line);
                line.clear();
                // A word wider than the line is cut, character by character.
                std::string piece;
                for (std::size_t i = 0; i < word.size();) {
                    const auto n = char_length(word, i);
                    const std::string next = piece + word.substr(i, n);
                    if (!piece.empty() && width_of(font, size, next) > width) {
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
            if (c == ' ' || c == '\t') flush_word();
            else if (c == '\n') {
                flush_word();
                lines.push_back(line);
                line.clear();
            } else word += c;
        }
        flush_word();
        lines.push_back(line);
        return lines;
    }

    void put(const PdfBlock& block) {
        const Style s = style_of(block.kind);
        const float line_height = s.size * 1.35f;
        y_ -= s.space_before;
        if (block.kind == PdfBlock::Kind::spacer) return;
        HPDF_Font font = s.bold ? bold_ : regular_;
        const float x = margin + s.indent;
        const float width = page_width - margin - x;
        const auto lines = wrap(font, s.size, block.kind == PdfBlock::Kind::item ? "• " + block.text : block.text, width);
        // A heading never stays alone at the foot of a page.
        const float keep = (block.kind == PdfBlock::Kind::heading || block.kind == PdfBlock::Kind::subheading)
                               ? line_height * 3 : line_height;
        if (y_ - keep < body_bottom) new_page();
        for (const auto& line : lines) {
            if (y_ - line_height < body_bottom) new_page();
            y_ -= line_height;
            text_at(font, s.size, x, y_, line);
        }
    }

    // The text cut (with "…") to fit the width.
    std::string fitted(HPDF_Font font, float size, const std::string& text, float width) {
        if (width_of(font, size, text) <= width) return text;
        std::string cut;
        for (std::size_t i = 0; i < text.size();) {
            const auto n = char_length(text, i);
            if (width_of(font, size, cut + text.substr(i, n) + "…") > width) break;
            cut += text.substr(i, n);
            i += n;
        }
        return cut + "…";
    }

    void finish_pages() {
        const int count = static_cast<int>(pages_.size());
        for (int i = 0; i < count; ++i) {
            page_ = pages_[static_cast<std::size_t>(i)];
            float label_width = 0;
            if (doc_.page_label) {
                const auto label = doc_.page_label(i + 1, count);
                label_width = width_of(regular_, 8, label);
                text_at(regular_, 8, page_width - margin - label_width, footer_y, label, 0.4f);
            }
            if (!doc_.footer.empty())
                text_at(regular_, 8, margin, footer_y, fitted(regular_, 8, doc_.footer, page_width - 2 * margin - label_width - 16), 0.4f);
        }
    }

    void watermark() {
        const float size = 72;
        const float w = width_of(bold_, size, doc_.watermark);
        HPDF_Page_GSave(page_);
        HPDF_Page_SetGrayFill(page_, 0.85f);
        HPDF_Page_BeginText(page_);
        HPDF_Page_SetFontAndSize(page_, bold_, size);
        const float c = 0.7071f;  // 45 degrees
        HPDF_Page_SetTextMatrix(page_, c, c, -c, c, page_width / 2 - c * w / 2 + c * size / 2,
                                page_height / 2 - c * w / 2 - c * size / 2);
        HPDF_Page_ShowText(page_, doc_.watermark.c_str());
        HPDF_Page_EndText(page_);
        HPDF_Page_GRestore(page_);
    }

    const PdfDocument& doc_;
    ErrorNote note_;
    HPDF_Doc pdf_;
    HPDF_Font regular_ = nullptr, bold_ = nullptr;
    HPDF_Page page_ = nullptr;
    std::vector<HPDF_Page> pages_;
    float y_ = body_top;
};

}  // namespace

int write_pdf(const PdfDocument& document, const std::string& path) {
    Writer writer(document);
    return writer.write(path);
}

}  // namespace syndic
