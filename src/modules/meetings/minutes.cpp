#include "modules/meetings/minutes.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "auth/credentials.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/pdf_writer.hpp"
#include "modules/meetings/minutes_sections.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/meetings/wording.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"

namespace syndic::meetings {

namespace {

PdfDocument minutes_document(Database& db, const std::string& syndicate_id, const Meeting& m, wording::Language lang,
                             bool draft, Instant now) {
    const bool fr = lang == wording::Language::fr;
    const auto attendees = attendees_of(db, m.id);
    // A board meeting's attendance is its directors' (board_roll); a co-owners' meeting's, its roll's.
    const auto roll = m.type == "board" ? VotingRoll{} : voting_roll(db, syndicate_id, m, roll_day(m, now));
    const auto quorum = quorum_of(db, syndicate_id, m, now);  // the meeting's quorum, whoever its roll is
    const auto resolutions = resolutions_of(db, m.id);

    PdfDocument doc;
    doc.pdf_title = (fr ? "Procès-verbal — " : "Minutes — ") + m.title;
    doc.pdf_subject = wording::meeting_type(m.type, lang);
    if (draft) {
        doc.watermark = fr ? "BROUILLON" : "DRAFT";
        doc.banner = fr ? "PROJET DE PROCÈS-VERBAL — BROUILLON, NON APPROUVÉ" : "DRAFT MINUTES — NOT APPROVED";
    }
    doc.footer = syndicate_name(db, syndicate_id) + " — " + doc.pdf_title;
    doc.page_label = [fr](int page, int pages) {
        return (fr ? "Page " : "Page ") + std::to_string(page) + (fr ? " de " : " of ") + std::to_string(pages);
    };
    const MinutesPage page{db, syndicate_id, m, lang, doc.blocks};
    header_blocks(page);
    sitting_blocks(page);
    if (!m.agenda.empty()) {
        page.add(PdfBlock::Kind::heading, fr ? "Ordre du jour" : "Agenda");
        int n = 1;
        for (const auto& item : m.agenda) page.add(PdfBlock::Kind::numbered, std::to_string(n++) + ". " + item);
    }
    if (m.type == "board") board_attendance_blocks(page, board_roll(db, syndicate_id, m));
    else attendance_blocks(page, roll, attendees);
    const bool any_voted = std::any_of(resolutions.begin(), resolutions.end(),
                                       [](const Resolution& r) { return r.recorded || r.ballots_recorded; });
    quorum_blocks(page, quorum, any_voted);
    resolution_blocks(page, resolutions);
    adjournment_blocks(page);
    signature_blocks(page, now);
    return doc;
}

}  // namespace

MinutesRecord write_minutes(Database& db, const std::string& syndicate_id, const Meeting& m, bool draft,
                            const std::string& language, Instant now) {
    const auto local = montreal_local(m.scheduled_at);
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02d-%02d", local.year, local.month, local.day);
    MinutesRecord record;
    record.document_id = new_record_id();
    record.draft = draft;
    record.language = language;
    // Ids tell one file from another by their last 8 hex digits, random: a time-ordered id's first
    // ones are the same for every id of the same minute (core/ids.hpp).
    const auto tail = [](const std::string& id) { return id.substr(id.size() > 8 ? id.size() - 8 : 0); };
    const std::string file = std::string("minutes-") + date + "-" + tail(m.id) + (draft ? "-draft-" : "-final-") +
                             language + "-" + tail(record.document_id) + ".pdf";
    record.path = (std::filesystem::path(db.data_dir()) / "exports" / file).string();

    const auto pdf = render_pdf(minutes_document(db, syndicate_id, m, wording::language_of(language), draft, now));
    record.pages = pdf.pages;
    // On disk, whole and checked, before it is recorded; under its final name once the record is
    // committed, removed if it is not.
    const auto staged = stage_file_durably(record.path, pdf.bytes, FileCheck::pdf, "exports/" + file);
    db.publish_on_commit(staged.temporary, staged.final_path);
    record.size_bytes = staged.written.size;
    record.sha256 = staged.written.sha256;
    record.created_at = to_utc_iso(now);
    return record;
}

}  // namespace syndic::meetings
