// Minutes a secretary signs (issue 27, item 4): the sitting update_meeting records (chair,
// secretary, opening and closing) and its refusals; no heading left alone at the foot of a page,
// read back from the PDF with poppler-utils.
#include "meetings/meetings_fixture.hpp"
#include "meetings/minutes_pdf.hpp"
#include "modules/documents/pdf_writer.hpp"

#include <filesystem>
#include <fstream>
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_minutes_signed_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;
using namespace syndic::test::minutes_pdf;
namespace fs = std::filesystem;

namespace {

// The page (from 1) whose text holds `part`; 0 for none.
int page_of(const std::string& path, int pages, const std::string& part) {
    for (int page = 1; page <= pages; ++page)
        if (contains(squash(pdf_page_text(path, page)), part)) return page;
    return 0;
}

std::string written(const MeetingFixture& fx, const syndic::RenderedPdf& pdf, const std::string& name) {
    const auto path = (fs::path(fx.data_dir) / name).string();
    std::ofstream(path, std::ios::binary) << pdf.bytes;
    return path;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("update_meeting records the sitting: chair, secretary, opening and closing") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.on_meeting_day(m);  // 20:00 in Montreal
    const json sitting = {{"id", m["id"]}, {"chair", " Émilie Bélanger "}, {"secretary", "Hélène Dubé"},
                          {"openedAt", "2026-12-15T19:05"}, {"closedAt", "2026-12-15T19:55:00-05:00"}};

    SUBCASE("recorded, shown on the meeting, cleared by null") {
        const auto updated = fx.call("update_meeting", sitting);
        CHECK(updated["chair"] == "Émilie Bélanger");
        CHECK(updated["secretary"] == "Hélène Dubé");
        CHECK(updated["openedAt"] == "2026-12-15T19:05:00-05:00");
        CHECK(updated["closedAt"] == "2026-12-15T19:55:00-05:00");
        CHECK(fx.get(m)["chair"] == "Émilie Bélanger");
        const auto cleared = fx.call("update_meeting", {{"id", m["id"]}, {"chair", nullptr}, {"closedAt", nullptr}});
        CHECK(cleared["chair"].is_null());
        CHECK(cleared["closedAt"].is_null());
        CHECK(cleared["secretary"] == "Hélène Dubé");
        CHECK(cleared["openedAt"] == "2026-12-15T19:05:00-05:00");
        // Once held, still recorded (the secretary writes them after the meeting).
        fx.held(m);
        CHECK(fx.call("update_meeting", {{"id", m["id"]}, {"closedAt", "2026-12-15T19:50"}})["closedAt"] ==
              "2026-12-15T19:50:00-05:00");
    }
    SUBCASE("a meeting opens on its day, from the time of its notice, and closes after it opens, not later than now") {
        const auto refused_at = [&](json args, const std::string& field) {
            args["id"] = m["id"];
            CAPTURE(args);
            const auto before = fx.snapshot();
            const auto e = fx.error("update_meeting", args);
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(has_error_on(e, field));
            CHECK(fx.snapshot() == before);
        };
        refused_at({{"openedAt", "2026-12-15T18:59"}}, "/openedAt");  // before the notice's time
        refused_at({{"openedAt", "2026-12-16T19:05"}}, "/openedAt");  // another day
        refused_at({{"openedAt", "2026-12-15T20:30"}}, "/openedAt");  // later than now (20:00)
        refused_at({{"openedAt", "2026-12-15T19:30"}, {"closedAt", "2026-12-15T19:30"}}, "/closedAt");
        refused_at({{"closedAt", "2026-12-15T21:30"}}, "/closedAt");  // later than now
        refused_at({{"closedAt", "tomorrow"}}, "/closedAt");
        fx.call("update_meeting", sitting);
        refused_at({{"openedAt", "2026-12-15T19:56"}}, "/openedAt");  // after the closing kept
    }
    SUBCASE("the minutes sent, the sitting they record no longer changes") {
        fx.held(m);
        fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", false}});
        fx.call("send_minutes", {{"meetingId", m["id"]}});
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", (json{{"id", m["id"]}, {"chair", "Marc Gagnon"}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"chair", std::string(201, 'a')}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"secretary", 7}}));
    }
}

// The PDF writer keeps a heading with what follows it: a heading, the subheading under it and the
// first lines of the text after them move to the next page together. Filler lines push them down
// a line at a time across the foot of the first page.
TEST_CASE("minutes: no heading left alone at the foot of a page") {
    MeetingFixture fx;
    using K = syndic::PdfBlock::Kind;
    for (int filler = 34; filler <= 46; ++filler) {
        CAPTURE(filler);
        syndic::PdfDocument doc;
        for (int i = 1; i <= filler; ++i) doc.blocks.push_back({K::item, "Ligne de remplissage " + std::to_string(i)});
        doc.blocks.push_back({K::heading, "Résolutions"});
        doc.blocks.push_back({K::subheading, "Résolution 1 — Réfection de la toiture"});
        doc.blocks.push_back({K::paragraph, "Il est résolu d'entreprendre la réfection complète de la toiture au printemps, "
                                            "selon le devis de l'ingénieur et la soumission retenue par le conseil."});
        doc.blocks.push_back({K::paragraph, "Fin du texte."});
        const auto pdf = syndic::render_pdf(doc);
        const auto path = written(fx, pdf, "kept-" + std::to_string(filler) + ".pdf");
        // The heading, its subheading and the text's first line read on one page.
        const int heading = page_of(path, pdf.pages, "Résolutions Résolution 1");
        CHECK(heading >= 1);
        CHECK(heading == page_of(path, pdf.pages, "Réfection de la toiture Il est résolu"));
    }
}

}  // TEST_SUITE

}  // namespace meetings_minutes_signed_test
