// What the minutes tests (meetings_minutes_*_test.cpp) read a PDF with: poppler-utils' text of the
// whole file or of a page, with white space squashed so a wrapped phrase reads as one, its number
// of pages, and what poppler complains of. Holds no check of the minutes themselves.
#pragma once
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>

namespace syndic::test::minutes_pdf {

// Every run of white space (line ends and page breaks included) as one space, so a phrase that
// the PDF wrapped across lines still reads as one.
inline std::string squash(const std::string& text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// The standard output of a shell command, which must succeed.
inline std::string run(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
    const int status = pclose(pipe);
    CHECK_MESSAGE(status == 0, command);
    return out;
}

// The text of a PDF as poppler reads it (its warnings are checked apart, by pdf_complaints).
inline std::string pdf_text(const std::string& path) { return run("pdftotext -enc UTF-8 '" + path + "' - 2>/dev/null"); }
inline std::string pdf_page_text(const std::string& path, int page) {
    const auto p = std::to_string(page);
    return run("pdftotext -enc UTF-8 -f " + p + " -l " + p + " '" + path + "' - 2>/dev/null");
}
// What poppler says on reading the PDF's text and fonts: nothing, for a well-formed file.
inline std::string pdf_complaints(const std::string& path) {
    return run("pdftotext -enc UTF-8 '" + path + "' /dev/null 2>&1") + run("pdffonts '" + path + "' 2>&1 >/dev/null");
}
inline int pdf_pages(const std::string& path) {
    const auto info = run("pdfinfo '" + path + "' 2>/dev/null");
    const auto at_pages = info.find("Pages:");
    REQUIRE(at_pages != std::string::npos);
    return std::stoi(info.substr(at_pages + 6));
}
inline std::string file_sha256(const std::string& path) { return run("sha256sum '" + path + "'").substr(0, 64); }

}  // namespace syndic::test::minutes_pdf
