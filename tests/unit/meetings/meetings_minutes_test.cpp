// The meetings module's minutes (interface 2.5, 3; issue 15): generate_minutes as a real PDF read
// back with poppler-utils (drafts, final minutes, English, many pages), the download address a
// remote caller gets, and names in every script placed and read as typed.
#include "meetings/meetings_fixture.hpp"
#include "meetings/minutes_pdf.hpp"
#include "modules/documents/document_files.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_minutes_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;
using namespace syndic::test::minutes_pdf;
namespace fs = std::filesystem;

TEST_SUITE("meetings") {

TEST_CASE("generate_minutes") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Hélène Dubé"), present(fx.john), absent(fx.marc)}));
    const auto r1 = fx.resolution(m, "Approbation des états financiers", "simple",
                                  "Il est résolu d'approuver les états financiers vérifiés de l'exercice 2025.");
    const auto r2 = fx.resolution(m, "Réfection de la toiture", "absolute",
                                  "Il est résolu d'entreprendre la réfection complète de la toiture au printemps.");
    const auto r3 = fx.resolution(m, "Nomination du vérificateur", "simple");
    fx.votes(r1, 55, 21, 0);   // passed
    fx.votes(r2, 51, 25, 0);   // 67 %: rejected

    SUBCASE("a French draft: every part of the meeting, marked BROUILLON") {
        const auto before = fx.exported_files();
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        CHECK(d["meetingId"] == m["id"]);
        CHECK(d["draft"] == true);
        CHECK(d["language"] == "fr");
        const std::string path = d["path"];
        CHECK(fs::path(path).parent_path() == fs::path(fx.exports()));
        CHECK(fs::path(path).extension() == ".pdf");
        REQUIRE(fs::exists(path));
        CHECK(fx.exported_files() == before + 1);
        CHECK(d["sizeBytes"] == static_cast<std::int64_t>(fs::file_size(path)));
        CHECK(d["sha256"] == file_sha256(path));
        CHECK(d["pages"] == pdf_pages(path));
        CHECK(d["pages"].get<int>() >= 1);

        const auto text = squash(pdf_text(path));
        CAPTURE(text);
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "mardi 15 décembre 2026 à 19 h 00"));
        CHECK(contains(text, meeting_place));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "François Côté"));
        CHECK(contains(text, "Hélène Dubé"));
        CHECK(contains(text, "John Smith"));
        CHECK(contains(text, "Marc Gagnon"));
        CHECK_FALSE(contains(text, "Zoé"));
        CHECK(contains(text, "Élection des administrateurs"));  // the agenda
        CHECK(contains(text, "Approbation des états financiers"));
        CHECK(contains(text, "Il est résolu d'approuver les états financiers vérifiés de l'exercice 2025."));
        CHECK(contains(text, "Réfection de la toiture"));
        CHECK(contains(text, "Nomination du vérificateur"));
        CHECK(contains(text, "ADOPTÉE"));
        CHECK(contains(text, "REJETÉE"));
        // Each resolution followed by its own outcome.
        const auto p1 = text.find("Approbation des états financiers"), p2 = text.find("Réfection de la toiture"),
                   p3 = text.find("Nomination du vérificateur");
        REQUIRE(p1 != std::string::npos);
        REQUIRE(p2 != std::string::npos);
        REQUIRE(p3 != std::string::npos);
        CHECK(p1 < p2);
        CHECK(p2 < p3);
        CHECK(contains(text.substr(p1, p2 - p1), "ADOPTÉE"));
        CHECK_FALSE(contains(text.substr(p1, p2 - p1), "REJETÉE"));
        CHECK(contains(text.substr(p2, p3 - p2), "REJETÉE"));
        CHECK_FALSE(contains(text.substr(p3), "ADOPTÉE"));
        CHECK_FALSE(contains(text.substr(p3), "REJETÉE"));
        // Quorum: present 30 + 25 = 55, by proxy 21, total 76, required 51.
        CHECK(contains(text, "55 %"));
        CHECK(contains(text, "21 %"));
        CHECK(contains(text, "76 %"));
        CHECK(contains(text, "51 %"));
        CHECK(contains(text, "BROUILLON"));
        CHECK(contains(text, "Page 1 de"));
    }
    SUBCASE("final minutes need a held meeting, and are not marked as a draft") {
        const json final_args = {{"meetingId", m["id"]}, {"draft", false}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", final_args);
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", (json{{"meetingId", m["id"]}}));  // draft defaults to false
        CHECK(fx.exported_files() == 0);
        CHECK(fx.get(m)["documents"].empty());
        const auto draft_meeting = fx.meeting({{"title", "Encore un brouillon"}});
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", (json{{"meetingId", draft_meeting["id"]}}));
        // A draft of a draft meeting is fine.
        CHECK(fx.call("generate_minutes", {{"meetingId", draft_meeting["id"]}, {"draft", true}})["draft"] == true);

        fx.held(m);
        const auto f = fx.call("generate_minutes", final_args);
        CHECK(f["draft"] == false);
        const std::string path = f["path"];
        REQUIRE(fs::exists(path));
        CHECK(f["sha256"] == file_sha256(path));
        CHECK(f["sizeBytes"] == static_cast<std::int64_t>(fs::file_size(path)));
        CHECK(f["pages"] == pdf_pages(path));
        const auto text = squash(pdf_text(path));
        CAPTURE(text);
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "ADOPTÉE"));
        CHECK_FALSE(contains(text, "BROUILLON"));
        CHECK_FALSE(contains(text, "DRAFT"));

        // Both documents are the meeting's, in the order made.
        fx.clock.advance(std::chrono::minutes(5));
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        const auto docs = fx.get(m)["documents"];
        REQUIRE(docs.size() == 2);
        CHECK(docs[0]["documentId"] == f["documentId"]);
        CHECK(docs[0]["draft"] == false);
        CHECK(docs[0]["language"] == "fr");
        CHECK(docs[0]["kind"] == "minutes");
        CHECK(docs[0]["path"] == f["path"]);
        CHECK(docs[0]["pages"] == f["pages"]);
        CHECK(docs[0]["sizeBytes"] == f["sizeBytes"]);
        CHECK(docs[0]["sha256"] == f["sha256"]);
        CHECK(docs[0]["createdAt"] == "2026-12-15T20:00:00-05:00");  // an hour after it began (held on its day)
        CHECK(docs[1]["documentId"] == d["documentId"]);
        CHECK(docs[1]["draft"] == true);
        CHECK(docs[1]["createdAt"] == "2026-12-15T20:05:00-05:00");
        CHECK(d["path"] != f["path"]);
    }
    SUBCASE("a well-formed PDF: poppler reads it without a warning") {
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        const std::string path = d["path"];
        CHECK(run("head -c 5 '" + path + "'") == "%PDF-");
        CHECK(pdf_complaints(path) == "");
        const auto fonts = run("pdffonts '" + path + "' 2>/dev/null");
        CAPTURE(fonts);
        CHECK(contains(fonts, "DejaVuSans"));
        // Every font embedded ("emb" yes) and with a Unicode map ("uni" yes).
        CHECK_FALSE(contains(fonts, " no "));
    }
    SUBCASE("in English") {
        fx.held(m);
        const auto e = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"language", "en"}, {"draft", true}});
        CHECK(e["language"] == "en");
        const auto text = squash(pdf_text(e["path"]));
        CAPTURE(text);
        CHECK(contains(text, "Minutes"));
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "Tuesday, December 15, 2026 at 7:00 PM"));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "PASSED"));
        CHECK(contains(text, "REJECTED"));
        CHECK(contains(text, "76%"));
        CHECK(contains(text, "DRAFT"));
        CHECK_FALSE(contains(text, "ADOPTÉE"));
        CHECK_FALSE(contains(text, "BROUILLON"));
        const auto final_en = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"language", "en"}});
        const auto final_text = squash(pdf_text(final_en["path"]));
        CHECK(contains(final_text, "PASSED"));
        CHECK_FALSE(contains(final_text, "DRAFT"));
        CHECK(fx.get(m)["documents"][1]["language"] == "en");
    }
    SUBCASE("40 resolutions with long texts flow onto several pages, each marked as a draft") {
        const auto big = fx.meeting({{"title", "Assemblée des quarante résolutions"}});
        std::string paragraph;
        for (int i = 0; i < 12; ++i)
            paragraph += "Attendu que le syndicat doit maintenir l'immeuble en bon état et que le conseil d'administration "
                         "a obtenu trois soumissions conformes au devis préparé par l'ingénieur mandaté, ";
        for (int i = 1; i <= 40; ++i)
            fx.resolution(big, "Résolution numéro " + std::to_string(i) + " sur les travaux", i % 3 == 0 ? "absolute" : "simple",
                          paragraph + "il est résolu d'accepter la soumission Clausefinale" + std::to_string(i) + ".");
        const auto d = fx.call("generate_minutes", {{"meetingId", big["id"]}, {"draft", true}});
        const std::string path = d["path"];
        const int pages = d["pages"];
        CHECK(pages >= 3);
        CHECK(pages == pdf_pages(path));
        CHECK(d["sha256"] == file_sha256(path));
        const auto text = squash(pdf_text(path));
        for (int i = 1; i <= 40; ++i) {
            CAPTURE(i);
            CHECK(contains(text, "Résolution numéro " + std::to_string(i) + " sur les travaux"));
            CHECK(contains(text, "Clausefinale" + std::to_string(i) + "."));
        }
        CHECK(contains(text, "Page " + std::to_string(pages) + " de " + std::to_string(pages)));
        for (int page = 1; page <= pages; ++page) {
            CAPTURE(page);
            const auto page_text = squash(pdf_page_text(path, page));
            CHECK(contains(page_text, "BROUILLON"));
            CHECK(contains(page_text, "Page " + std::to_string(page) + " de " + std::to_string(pages)));
        }
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "generate_minutes", (json{{"meetingId", unknown_id}, {"draft", true}}));
        CHECK(fx.exported_files() == 0);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"language", "de"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"draft", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"format", "docx"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", json::object());
        CHECK(fx.exported_files() == 0);
    }
    (void)r3;
}

TEST_CASE("a remote caller gets a download address for the minutes, never the server's path") {
    Building fx;
    const auto m = fx.meeting();
    auto remote = fx.admin;
    remote.remote_base = "https://syndic.example.org/api";
    const auto d = fx.call_as(remote, "generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    CHECK_FALSE(d.contains("path"));
    const std::string id = d["documentId"];
    CHECK(d["downloadUrl"] == "https://syndic.example.org/api/documents/" + id + "/content");
    const auto shown = fx.call_as(remote, "get_meeting", {{"id", m["id"]}});
    REQUIRE(shown["documents"].size() == 1);
    CHECK_FALSE(shown["documents"][0].contains("path"));
    CHECK(shown["documents"][0]["downloadUrl"] == d["downloadUrl"]);
    // A local (stdio) caller still gets the path.
    const auto local = fx.call("get_meeting", {{"id", m["id"]}});
    CHECK(local["documents"][0]["path"].get<std::string>().ends_with(".pdf"));

    SUBCASE("the file, for a caller of its syndicate who may read meetings") {
        const auto file = syndic::document_file(*fx.db, remote, id);
        CHECK(file.path == local["documents"][0]["path"].get<std::string>());
        CHECK(file.media_type == "application/pdf");
        CHECK(file.file_name.starts_with("minutes-"));
        CHECK(file.size_bytes == d["sizeBytes"]);
    }
    SUBCASE("another syndicate's caller: DOCUMENT_NOT_FOUND (tenancy)") {
        CHECK_THROWS_WITH_AS(syndic::document_file(*fx.db, fx.other_admin, id), doctest::Contains("No document"),
                             syndic::DomainError);
    }
    SUBCASE("a key without read:meetings: INSUFFICIENT_SCOPE") {
        auto reader = fx.admin;
        reader.scopes = {"read:co-owners"};
        try {
            syndic::document_file(*fx.db, reader, id);
            FAIL("expected INSUFFICIENT_SCOPE");
        } catch (const syndic::DomainError& e) {
            CHECK(e.code() == "INSUFFICIENT_SCOPE");
        }
    }
}

}

namespace {

// A word of a PDF page as poppler places it (pdftotext -bbox): its left and right edges, the
// middle of its height.
struct PlacedWord {
    double left, right, middle;
    std::string text;
};
using PlacedLine = std::vector<PlacedWord>;
// The page's lines, top to bottom: words whose middles are within 3 points (glyphs of different
// fonts on one line have different heights).
std::vector<PlacedLine> placed_lines(const std::string& path, int page) {
    const auto p = std::to_string(page);
    const auto xml = run("pdftotext -enc UTF-8 -bbox -f " + p + " -l " + p + " '" + path + "' - 2>/dev/null");
    std::vector<PlacedWord> words;
    auto number = [&](std::size_t at, const std::string& name) {
        const auto from = xml.find(name + "=\"", at) + name.size() + 2;
        return std::stod(xml.substr(from, xml.find('"', from) - from));
    };
    for (auto at = xml.find("<word "); at != std::string::npos; at = xml.find("<word ", at + 1)) {
        const auto open_end = xml.find('>', at) + 1;
        words.push_back({number(at, "xMin"), number(at, "xMax"), (number(at, "yMin") + number(at, "yMax")) / 2,
                         xml.substr(open_end, xml.find("</word>", open_end) - open_end)});
    }
    std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.middle < b.middle; });
    std::vector<PlacedLine> lines;
    for (const auto& w : words) {
        if (lines.empty() || w.middle - lines.back().front().middle > 3) lines.emplace_back();
        lines.back().push_back(w);
    }
    return lines;
}
bool has_word(const PlacedLine& line, const std::string& text) {
    return std::any_of(line.begin(), line.end(), [&](const PlacedWord& w) { return w.text == text; });
}
double left_of(const PlacedLine& line, const std::string& text) {
    for (const auto& w : line)
        if (w.text == text) return w.left;
    FAIL("no word " << text << " on the line");
    return 0;
}
bool part_of(const std::string& name, const PlacedWord& w) { return !w.text.empty() && w.text != " " && contains(name, w.text); }
// The first line with the word `marker` and some of `name`.
PlacedLine line_with(const std::vector<PlacedLine>& lines, const std::string& marker, const std::string& name) {
    for (const auto& line : lines)
        if (has_word(line, marker) && std::any_of(line.begin(), line.end(), [&](const auto& w) { return part_of(name, w); }))
            return line;
    FAIL("no line with " << marker << " and " << name);
    return {};
}
// The words of the line made of `name`'s characters read from right to left, as a right-to-left
// name is read on paper (spaces left out); `left` and `right` get the edges of what was read.
std::string read_right_to_left(PlacedLine line, const std::string& name, double& left, double& right) {
    line.erase(std::remove_if(line.begin(), line.end(), [&](const auto& w) { return !part_of(name, w); }), line.end());
    std::sort(line.begin(), line.end(), [](const PlacedWord& a, const PlacedWord& b) { return a.left > b.left; });
    std::string read;
    for (const auto& w : line) read += w.text;
    if (!line.empty()) {
        left = line.back().left;
        right = line.front().right;
    }
    return read;
}
std::string without_spaces(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

// The fonts of the minutes in every script: each embedded ("emb"), as a subset ("sub"), with a
// Unicode map ("uni"), and the one expected for each script drawn.
void check_fonts_of_every_script(const std::string& path) {
    const auto fonts = run("pdffonts '" + path + "' 2>/dev/null");
    CAPTURE(fonts);
    CHECK(contains(fonts, "DejaVuSans"));
    CHECK(contains(fonts, "WenQuanYiMicroHei"));     // the Chinese, Japanese and Korean names
    CHECK(contains(fonts, "NotoSansArabicUI"));      // the Arabic name, its letters joined
    CHECK(contains(fonts, "NotoSansDevanagariUI"));  // found by fontconfig's fallback
    // No hex box for a character no font has (pango draws those in a monospace font).
    CHECK_FALSE(contains(fonts, "Mono"));
    // Every font embedded ("emb"), as a subset ("sub"), with a Unicode map ("uni"): "yes yes yes".
    std::size_t fonts_listed = 0;
    std::istringstream rows_of_fonts(fonts);
    std::string row;
    while (std::getline(rows_of_fonts, row)) {
        if (row.find('+') == std::string::npos) continue;  // the header rows
        ++fonts_listed;
        CAPTURE(row);
        CHECK(contains(row, "yes yes yes"));
    }
    CHECK(fonts_listed >= 4);
}

}  // namespace

TEST_SUITE("meetings") {

// Issue 15: the names of Montreal's co-owners in their own scripts. Each must come back from the
// PDF's text as it was typed (a right-to-left name in logical order, not reversed; joined Arabic
// letters; no box for a missing glyph), read right to left on the page with what follows it after
// it, in fonts embedded as subsets with their Unicode maps.
TEST_CASE("minutes print names in every script: Hebrew, Arabic, CJK, Vietnamese, mixed lines") {
    MeetingFixture fx;
    struct Person {
        std::string first, last;
    };
    const std::vector<Person> people = {
        {"שרה", "כהן"},               // Hebrew
        {"فاطمة", "الزهراء"},         // Arabic
        {"小明", "王"},               // Chinese
        {"さくら", "山田"},           // Japanese
        {"민준", "김"},               // Korean
        {"Nguyễn Thị", "Hồng"},       // Vietnamese
        {"Γιώργος", "Παπαδόπουλος"},  // Greek
        {"Наталья", "Иванова"},       // Cyrillic
        {"प्रिया", "शर्मा"},             // Devanagari
        {"Émilie", "Bélanger"},       // French
    };
    std::vector<json> rows;
    for (std::size_t i = 0; i < people.size(); ++i) {
        const auto u = fx.unit(std::to_string(101 + i), 10);
        const auto c = fx.co_owner(u["id"], people[i].first, people[i].last, {{"fractionPercent", 10}});
        rows.push_back(i == 2 ? by_proxy(c, "佐藤花子") : present(c));  // a Japanese proxy holder
    }
    const auto m = fx.meeting({{"title", "Assemblée générale 2026 — אסיפה כללית — الجمعية العامة — 年度大会"}});
    fx.notice(m);
    fx.attend(m, rows);
    // One line mixing French, Hebrew, Arabic and Chinese (bidi inside a left-to-right line).
    fx.resolution(m, "Comité de quartier", "simple", "Mandat confié à שרה כהן et فاطمة الزهراء avec 王小明 pour 2027.");
    const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    const std::string path = d["path"];

    const auto text = squash(pdf_text(path));
    CAPTURE(text);
    for (const auto& p : people) CHECK(contains(text, p.first + " " + p.last));
    for (const auto* part : {"佐藤花子", "אסיפה כללית", "الجمعية العامة", "年度大会", "Mandat confié à", "pour 2027.", "BROUILLON"})
        CHECK(contains(text, part));
    CHECK(pdf_complaints(path) == "");

    // On the page, a Hebrew or Arabic name reads from right to left (first name on the right), and
    // the figures after it stay after it: "• שרה כהן — unité 101 — 10 % — Présence".
    const auto lines = placed_lines(path, 1);
    const std::string hebrew = "שרה כהן", arabic = "فاطمة الزهراء";
    for (const auto& name : {hebrew, arabic}) {
        CAPTURE(name);
        const auto line = line_with(lines, "Présence", name);  // its attendance line
        double left = 0, right = 0;
        CHECK(read_right_to_left(line, name, left, right) == without_spaces(name));
        CHECK(left_of(line, "•") < left);
        CHECK(left_of(line, "10") > right);
    }
    // The mixed line: the French words in their order, each name right to left in its place.
    const auto mixed_line = line_with(lines, "Mandat", hebrew);
    double hebrew_left = 0, hebrew_right = 0, arabic_left = 0, arabic_right = 0;
    CHECK(read_right_to_left(mixed_line, hebrew, hebrew_left, hebrew_right) == without_spaces(hebrew));
    CHECK(read_right_to_left(mixed_line, arabic, arabic_left, arabic_right) == without_spaces(arabic));
    CHECK(left_of(mixed_line, "à") < hebrew_left);
    CHECK(left_of(mixed_line, "et") > hebrew_right);
    CHECK(left_of(mixed_line, "et") < arabic_left);
    CHECK(left_of(mixed_line, "avec") > arabic_right);

    check_fonts_of_every_script(path);
}

}  // TEST_SUITE

}  // namespace meetings_minutes_test
