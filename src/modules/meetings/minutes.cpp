#include "modules/meetings/minutes.hpp"

#include <cstdio>
#include <filesystem>

#include "auth/credentials.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/pdf_writer.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/meetings/wording.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"

namespace syndic::meetings {

namespace {

using K = PdfBlock::Kind;

struct Page {
    Database& db;
    const std::string& syndicate_id;
    const Meeting& m;
    wording::Language lang;
    bool fr;
    std::vector<PdfBlock>& b;
    std::string pct(Fraction f) const { return wording::percent(f, lang); }
};

void header_blocks(const Page& p) {
    const auto& m = p.m;
    const bool fr = p.fr;
    auto& b = p.b;
    b.push_back({K::title, (fr ? "Procès-verbal — " : "Minutes — ") + m.title});
    b.push_back({K::subtitle, syndicate_name(p.db, p.syndicate_id)});
    b.push_back({K::subtitle, wording::meeting_type(m.type, p.lang)});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, (fr ? "Date et heure : " : "Date and time: ") + wording::date_time(m.scheduled_at, p.lang) +
                                   (fr ? " (heure de Montréal)" : " (Montreal time)")});
    b.push_back({K::paragraph, (fr ? "Lieu : " : "Location: ") + m.location});
    if (m.notice_sent_at)
        b.push_back({K::paragraph, (fr ? "Avis de convocation envoyé le " : "Notice sent on ") +
                                       wording::date_time(stored_instant(*m.notice_sent_at), p.lang) + "."});
    if (m.justification)
        b.push_back({K::paragraph, (fr ? "Motif de l'avis à court délai : " : "Reason for the short notice: ") + *m.justification});
    if (!m.agenda.empty()) {
        b.push_back({K::heading, fr ? "Ordre du jour" : "Agenda"});
        int n = 1;
        for (const auto& item : m.agenda) b.push_back({K::numbered, std::to_string(n++) + ". " + item});
    }
}

void attendance_blocks(const Page& p, const std::vector<Attendee>& attendees, const Quorum& quorum, bool any_resolution) {
    const bool fr = p.fr;
    auto& b = p.b;
    b.push_back({K::heading, fr ? "Présences" : "Attendance"});
    if (attendees.empty()) b.push_back({K::paragraph, fr ? "Aucune présence n'a été consignée." : "No attendance was recorded."});
    for (const auto& a : attendees) {
        std::string line = bidi_isolate(a.name) + " — " + p.pct(a.fraction) + " — " + wording::attendance(a.attendance, p.lang);
        if (a.proxy_holder) line += (fr ? " (mandataire : " : " (proxy holder: ") + bidi_isolate(*a.proxy_holder) + ")";
        b.push_back({K::item, line});
    }
    b.push_back({K::heading, "Quorum"});
    b.push_back({K::paragraph, (fr ? "Présents : " : "Present: ") + p.pct(quorum.present) + " · " +
                                   (fr ? "représentés par procuration : " : "by proxy: ") + p.pct(quorum.proxied) + " · " +
                                   (fr ? "total : " : "total: ") + p.pct(quorum.total()) + " · " +
                                   (fr ? "requis : " : "required: ") + p.pct(quorum.required) + "."});
    b.push_back({K::paragraph, quorum.reached() ? (fr ? "Le quorum est atteint." : "Quorum is reached.")
                                                : (fr ? "Le quorum n'est pas atteint." : "Quorum is not reached.")});
    if (!quorum.reached() && any_resolution)
        b.push_back({K::paragraph, fr ? "Attention : sans quorum, l'assemblée ne peut valablement délibérer ; les résultats "
                                        "ci-dessous sont consignés tels que votés."
                                      : "Note: without quorum the meeting cannot validly decide; the results below are "
                                        "recorded as voted."});
}

void resolution_blocks(const Page& p, const std::vector<Resolution>& resolutions) {
    const bool fr = p.fr;
    auto& b = p.b;
    b.push_back({K::heading, fr ? "Résolutions" : "Resolutions"});
    if (resolutions.empty()) b.push_back({K::paragraph, fr ? "Aucune résolution." : "No resolutions."});
    for (const auto& r : resolutions) {
        b.push_back({K::subheading, (fr ? "Résolution " : "Resolution ") + std::to_string(r.position) + " — " + r.title});
        if (!r.description.empty()) b.push_back({K::paragraph, r.description});
        b.push_back({K::paragraph, (fr ? "Majorité requise : " : "Majority required: ") + wording::majority(r.majority, p.lang)});
        if (r.recorded)
            b.push_back({K::paragraph, (fr ? "Pour : " : "For: ") + p.pct(r.votes_for) + " · " + (fr ? "contre : " : "against: ") +
                                           p.pct(r.votes_against) + " · " + (fr ? "abstentions : " : "abstentions: ") +
                                           p.pct(r.votes_abstain)});
        b.push_back({K::paragraph, (fr ? "Résultat : " : "Outcome: ") + wording::outcome(outcome(r), p.lang)});
    }
}

void signature_blocks(const Page& p, Instant now) {
    const bool fr = p.fr;
    auto& b = p.b;
    b.push_back({K::heading, fr ? "Signatures" : "Signatures"});
    b.push_back({K::paragraph, fr ? "Président(e) d'assemblée : ______________________________ — Date : ____________"
                                  : "Chair of the meeting: ______________________________ — Date: ____________"});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, fr ? "Secrétaire d'assemblée : ______________________________ — Date : ____________"
                                  : "Secretary of the meeting: ______________________________ — Date: ____________"});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, (fr ? "Document généré le " : "Document generated on ") + wording::date_time(now, p.lang) +
                                   (fr ? " par syndic-mcp." : " by syndic-mcp.")});
}

PdfDocument minutes_document(Database& db, const std::string& syndicate_id, const Meeting& m, wording::Language lang,
                             bool draft, Instant now) {
    const bool fr = lang == wording::Language::fr;
    const auto attendees = attendees_of(db, m.id);
    const auto quorum = quorum_of(db, syndicate_id, m, now);
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
    const Page page{db, syndicate_id, m, lang, fr, doc.blocks};
    header_blocks(page);
    attendance_blocks(page, attendees, quorum, !resolutions.empty());
    resolution_blocks(page, resolutions);
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
    // On disk, whole and checked, before it is recorded; removed if the record is not committed.
    const auto written = write_file_durably(record.path, pdf.bytes, FileCheck::pdf, "exports/" + file);
    db.remove_on_rollback(record.path);
    record.size_bytes = written.size;
    record.sha256 = written.sha256;
    record.created_at = to_utc_iso(now);
    return record;
}

}  // namespace syndic::meetings
