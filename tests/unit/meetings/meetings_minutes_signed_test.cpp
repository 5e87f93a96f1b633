// Minutes a secretary signs (issue 27, item 4), read back from the PDF with poppler-utils: no
// heading left alone at the foot of a page.
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
