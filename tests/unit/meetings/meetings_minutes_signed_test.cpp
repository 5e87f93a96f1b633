// Minutes a secretary signs (issue 27, item 4), read back from the PDF with poppler-utils: the
// sitting update_meeting records (chair, secretary, opening and closing) and its refusals; an
// adjourned meeting's minutes saying so, to when and where; a reconvened meeting's naming the
// meeting it continues and why those present form the quorum; every co-owner of the roll in
// words that fit anyone; a resolution voted without quorum not adopted; the directors elected with
// their offices; no heading left alone at the foot of a page.
#include "meetings/meetings_fixture.hpp"
#include "meetings/minutes_pdf.hpp"
#include "modules/documents/pdf_writer.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

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

// The minutes of meeting `m` (a draft unless `draft` is false) in `language`, as read back.
std::string minutes_text(MeetingFixture& fx, const json& m, const std::string& language = "fr", bool draft = true) {
    const auto made = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", draft}, {"language", language}});
    return squash(pdf_text(made["path"]));
}

// The French words of the text that agree with a person's gender (« présent », « absente »,
// « représentés », « Président(e) »...): words are runs of letters, accented ones included.
std::set<std::string> gendered_words(const std::string& text) {
    static const std::set<std::string> agreed = {
        "présent", "présente", "présents", "présentes", "absent", "absente", "absents", "absentes",
        "représenté", "représentée", "représentés", "représentées", "président", "présidente", "Président", "Présidente"};
    std::set<std::string> found;
    std::string word;
    const auto flush = [&] {
        if (agreed.count(word)) found.insert(word);
        word.clear();
    };
    for (unsigned char c : text) {
        if (std::isalpha(c) || c >= 0x80) word += static_cast<char>(c);
        else flush();
    }
    flush();
    return found;
}

// The text from `from` to the next `to` (or the end).
std::string between(const std::string& text, const std::string& from, const std::string& to) {
    const auto a = text.find(from);
    if (a == std::string::npos) return "";
    const auto b = text.find(to, a + from.size());
    return text.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// A meeting of the Building adjourned for want of quorum (Émilie alone present, 30 %) with one
// resolution left undecided, its sitting recorded, reconvened on 12 January 2027 in another room.
struct Adjourned : Building {
    json m, reconvened, undecided;
    Adjourned() {
        m = meeting();
        notice(m);
        attend(m, json::array({present(emilie), absent(francois)}));
        undecided = resolution(m, "Réfection de la toiture", "absolute");
        on_meeting_day(m);  // 20:00 in Montreal
        call("update_meeting", {{"id", m["id"]}, {"chair", "Émilie Bélanger"}, {"secretary", "Hélène Dubé"},
                                {"openedAt", "2026-12-15T19:05:00-05:00"}, {"closedAt", "2026-12-15T19:25"}});
        reconvened = call("adjourn_meeting", {{"meetingId", m["id"]}, {"reason", "no-quorum"},
                                              {"reconveneAt", "2027-01-12T19:00:00-05:00"},
                                              {"location", "Salle B, 1200 rue Sherbrooke Est, Montréal"}})["reconvened"];
    }
    // The reconvened meeting called and on its day, with `attendees` recorded.
    void reconvene(const json& attendees) {
        notice(reconvened);
        on_meeting_day(reconvened);
        attend(reconvened, attendees);
    }
};

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

TEST_CASE("minutes print the chair, the secretary and the times, or lines to fill by hand") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.held(m);  // final minutes: a draft's watermark changes the order pdftotext reads lines in
    auto text = minutes_text(fx, m, "fr", false);
    CAPTURE(text);
    const auto blank = between(text, "Lieu : ", "Ordre du jour");
    CHECK(contains(blank, "Présidence de l'assemblée : ______________________________"));
    CHECK(contains(blank, "Secrétariat de l'assemblée : ______________________________"));
    CHECK(contains(blank, "Ouverture de l'assemblée : ____ h ____ · levée : ____ h ____"));
    fx.call("update_meeting", {{"id", m["id"]}, {"chair", "Émilie Bélanger"}, {"secretary", "Hélène Dubé"},
                               {"openedAt", "2026-12-15T19:05"}, {"closedAt", "2026-12-15T19:55"}});
    text = minutes_text(fx, m, "fr", false);
    const auto header = between(text, "Lieu : ", "Ordre du jour");  // before the agenda
    CHECK(contains(header, "Présidence de l'assemblée : Émilie Bélanger"));
    CHECK(contains(header, "Secrétariat de l'assemblée : Hélène Dubé"));
    CHECK(contains(header, "Ouverture de l'assemblée : 19 h 05 · levée : 19 h 55"));
    // Each signs below their name.
    CHECK(contains(between(text, "Signatures", "Document généré"), "Présidence de l'assemblée : Émilie Bélanger Signature :"));
    CHECK(contains(between(text, "Signatures", "Document généré"), "Secrétariat de l'assemblée : Hélène Dubé Signature :"));
    const auto en = minutes_text(fx, m, "en", false);
    CAPTURE(en);
    CHECK(contains(en, "Chair of the meeting: Émilie Bélanger"));
    CHECK(contains(en, "Secretary of the meeting: Hélène Dubé"));
    CHECK(contains(en, "Opened at: 7:05 PM · closed at: 7:55 PM"));
    // A board meeting is a « réunion ».
    const auto board =
        minutes_text(fx, fx.meeting({{"type", "board"}, {"title", "Réunion du conseil"}, {"agenda", json::array({"Mandat de gestion"})}}));
    CAPTURE(board);
    CHECK(contains(board, "Présidence de la réunion : ______________________________"));
    CHECK(contains(board, "Ouverture de la réunion : ____ h ____"));
    CHECK_FALSE(contains(board, "de l'assemblée"));
}

TEST_CASE("minutes of an adjourned meeting say it was adjourned, why, to when and where") {
    Adjourned fx;
    const auto text = minutes_text(fx, fx.m, "fr", false);
    CAPTURE(text);
    CHECK(contains(text, "Assemblée générale annuelle des copropriétaires — ajournée"));
    CHECK(contains(text, "Ouverture de l'assemblée : 19 h 05 · ajournement : 19 h 25"));
    const auto adjournment = between(text, "Ajournement", "Signatures");
    CHECK(contains(adjournment, "L'assemblée est ajournée faute de quorum (art. 1089 C.c.Q.)."));
    CHECK(contains(adjournment, "Elle reprendra le mardi 12 janvier 2027 à 19 h 00 (heure de Montréal), au lieu suivant : "
                                "Salle B, 1200 rue Sherbrooke Est, Montréal."));
    CHECK(contains(adjournment, "les copropriétaires qui y assisteront ou s'y feront représenter en formeront le quorum "
                                "(art. 1089, al. 2 C.c.Q.)"));
    CHECK(contains(adjournment, "Un avis de convocation de la reprise sera envoyé."));
    // The undecided resolution goes to the reconvened meeting.
    CHECK(contains(between(text, "Réfection de la toiture", "Ajournement"),
                   "Résultat : non mise aux voix ; reportée à l'assemblée de reprise."));
    const auto en = minutes_text(fx, fx.m, "en", false);
    CAPTURE(en);
    CHECK(contains(en, "Annual general meeting of the co-owners — adjourned"));
    CHECK(contains(en, "The meeting was adjourned for want of quorum (art. 1089 C.C.Q.)."));
    CHECK(contains(en, "It will reconvene on Tuesday, January 12, 2027 at 7:00 PM (Montreal time), at the following place: "
                       "Salle B, 1200 rue Sherbrooke Est, Montréal."));
}

TEST_CASE("minutes of a reconvened meeting name the meeting it continues and why those present form the quorum") {
    Adjourned fx;
    SUBCASE("those present hold a majority of all votes") {
        fx.reconvene(json::array({present(fx.emilie), by_proxy(fx.john, "Hélène Dubé")}));  // 30 + 25 = 55 %
        const auto text = minutes_text(fx, fx.reconvened);
        CAPTURE(text);
        CHECK(contains(text, "Assemblée générale annuelle des copropriétaires — reprise après ajournement"));
        CHECK(contains(text, "Cette assemblée est la reprise de l'assemblée convoquée pour le mardi 15 décembre 2026 à 19 h 00 (" +
                                 meeting_place + "), ajournée faute de quorum (art. 1089 C.c.Q.)."));
        const auto quorum = between(text, "Quorum", "Résolutions");
        CHECK(contains(quorum, "les copropriétaires qui y assistent ou s'y font représenter en forment le quorum, quel que "
                               "soit le nombre de leurs voix (art. 1089, al. 2 C.c.Q.)."));
        CHECK(contains(quorum, "Voix en présence : 30 % · par procuration : 25 % · total : 55 %, de 2 copropriétaires."));
        CHECK(contains(quorum, "Le quorum est atteint."));
        CHECK(contains(quorum, "Ces voix forment la majorité des voix de tous les copropriétaires (55 % sur 100 %)"));
        CHECK_FALSE(contains(text, "requis :"));  // no « requis : 0 % »
        const auto en = minutes_text(fx, fx.reconvened, "en");
        CAPTURE(en);
        CHECK(contains(en, "This meeting reconvenes the meeting called for Tuesday, December 15, 2026 at 7:00 PM (" +
                               meeting_place + "), adjourned for want of quorum (art. 1089 C.C.Q.)."));
        CHECK(contains(en, "form its quorum, whatever their votes (art. 1089 para. 2 C.C.Q.)."));
        CHECK_FALSE(contains(en, "required: 0"));
    }
    SUBCASE("they do not: an absolute majority is rejected, and the minutes say why") {
        fx.reconvene(json::array({present(fx.emilie)}));  // 30 %
        const auto carried = fx.get(fx.reconvened)["resolutions"][0];
        fx.votes(carried, 30, 0, 0);
        fx.held(fx.reconvened);
        const auto text = minutes_text(fx, fx.reconvened, "fr", false);
        CAPTURE(text);
        CHECK(contains(text, "Ces voix ne forment pas la majorité des voix de tous les copropriétaires (30 % sur 100 %)"));
        CHECK(contains(between(text, "Réfection de la toiture", "Signatures"),
                       "Résultat : REJETÉE — à une assemblée de reprise, une décision des articles 1097 ou 1098 C.c.Q. exige"));
        CHECK_FALSE(contains(text, "ADOPTÉE"));
    }
}

TEST_CASE("minutes list every co-owner of the roll, absent ones as absent, in words that fit anyone") {
    Adjourned fx;
    const auto text = minutes_text(fx, fx.m);
    CAPTURE(text);
    const auto attendance = between(text, "Présences et procurations", "Quorum");
    CHECK(contains(attendance, "Émilie Bélanger — unité 101 — 30 % — Présence"));
    CHECK(contains(attendance, "François Côté — unité 102 — 21 % — Absence"));  // recorded absent
    CHECK(contains(attendance, "John Smith — unité 201 — 25 % — Absence"));     // not recorded
    CHECK(contains(attendance, "Marc Gagnon — unité 202 — 24 % — Absence"));
    CHECK_FALSE(contains(attendance, "Zoé"));  // archived before the meeting
    CHECK(contains(attendance, "Présence : 1 · procuration : 0 · absence : 3 — copropriétaires au registre : 4."));
    CHECK(gendered_words(text).empty());

    fx.reconvene(json::array({present(fx.emilie), by_proxy(fx.john, "Hélène Dubé")}));
    const auto reconvened = minutes_text(fx, fx.reconvened);
    CAPTURE(reconvened);
    CHECK(contains(reconvened, "John Smith — unité 201 — 25 % — Procuration (mandataire : Hélène Dubé)"));
    CHECK(gendered_words(reconvened).empty());
    const auto en = minutes_text(fx, fx.reconvened, "en");
    CHECK(contains(en, "John Smith — unit 201 — 25% — By proxy (proxy holder: Hélène Dubé)"));
    CHECK(contains(en, "Marc Gagnon — unit 202 — 24% — Absent"));
}

TEST_CASE("minutes show a resolution voted without quorum as not adopted, one voted with quorum as adopted") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie)}));  // 30 % of 51 % required
    const auto early = fx.resolution(m, "Approbation des états financiers", "simple");
    const auto later = fx.resolution(m, "Nomination du vérificateur", "simple");
    CHECK(fx.votes(early, 30, 0, 0)["outcome"] == "passed");  // the votes alone pass it
    fx.attend(m, json::array({present(fx.john), present(fx.marc)}));  // 79 %: quorum from now on
    fx.votes(later, 79, 0, 0);
    const auto text = minutes_text(fx, m);
    CAPTURE(text);
    const auto first = between(text, "Approbation des états financiers", "Nomination du vérificateur");
    CHECK(contains(first, "Résultat : NON ADOPTÉE — la majorité requise est obtenue, mais le quorum n'était pas atteint lors "
                          "du vote : la résolution n'autorise aucun acte."));
    CHECK_FALSE(contains(first, "Résultat : ADOPTÉE"));
    const auto second = between(text, "Nomination du vérificateur", "Signatures");
    CHECK(contains(second, "Résultat : ADOPTÉE"));
    CHECK(contains(second, "— sur 79 % des voix en présence ou par procuration"));
    const auto en = minutes_text(fx, m, "en");
    CHECK(contains(between(en, "Approbation des états financiers", "Nomination du vérificateur"), "Outcome: NOT ADOPTED"));
}

TEST_CASE("minutes name the directors elected at the meeting and their offices") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), present(fx.francois), present(fx.john), present(fx.marc)}));
    const auto election = fx.resolution(m, "Élection des administrateurs", "simple");
    const auto other = fx.resolution(m, "Nomination du vérificateur", "simple");
    fx.votes(election, 100, 0, 0);
    fx.votes(other, 100, 0, 0);
    fx.held(m);
    const auto appoint = [&](json who, const std::string& role) {
        who.update({{"role", role}, {"appointedBy", "meeting"}, {"resolutionId", election["id"]}, {"termStart", "2026-12-15"},
                    {"termEnd", "2027-12-15"}});
        fx.call("appoint_director", who);
    };
    appoint({{"coOwnerId", fx.john["id"]}}, "treasurer");
    appoint({{"coOwnerId", fx.emilie["id"]}}, "president");
    appoint({{"coOwnerId", fx.francois["id"]}}, "secretary");
    appoint({{"name", "Hélène Dubé"}}, "director");
    const auto text = minutes_text(fx, m, "fr", false);
    CAPTURE(text);
    const auto elected = between(text, "Élection des administrateurs", "Nomination du vérificateur");
    CHECK(contains(elected, "Résultat : ADOPTÉE Élection au conseil d'administration : • Émilie Bélanger"));
    // Officers first, then the other directors; each with the office and term of the register.
    std::size_t at = 0;
    for (const auto* line : {"• Émilie Bélanger — présidence — mandat du 15 décembre 2026 au 15 décembre 2027",
                             "• François Côté — secrétariat — mandat du 15 décembre 2026 au 15 décembre 2027",
                             "• John Smith — trésorerie — mandat du 15 décembre 2026 au 15 décembre 2027",
                             "• Hélène Dubé — membre du conseil — mandat du 15 décembre 2026 au 15 décembre 2027"}) {
        CAPTURE(line);
        const auto found = elected.find(line);
        CHECK(found != std::string::npos);
        CHECK(found >= at);
        at = found == std::string::npos ? at : found;
    }
    CHECK_FALSE(contains(between(text, "Nomination du vérificateur", "Signatures"), "Élection au conseil"));
    const auto en = minutes_text(fx, m, "en", false);
    CAPTURE(en);
    CHECK(contains(en, "Elected to the board of directors: • Émilie Bélanger — president — term from December 15, 2026 to "
                       "December 15, 2027"));
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
