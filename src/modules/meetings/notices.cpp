#include "modules/meetings/notices.hpp"

#include "auth/credentials.hpp"

namespace syndic::meetings {

std::pair<std::string, std::string> notice_message(const Meeting& m, const std::string& syndicate_name,
                                                   const std::string& first_name, const std::string& last_name,
                                                   wording::Language lang, bool with_agenda,
                                                   const std::vector<std::string>& attached_titles) {
    const bool fr = lang == wording::Language::fr;
    const std::string when = wording::date_time(m.scheduled_at, lang);
    std::string subject = (fr ? "Avis de convocation : " : "Notice of meeting: ") + m.title;
    for (auto& c : subject)
        if (c == '\r' || c == '\n') c = ' ';  // one header line
    std::string body;
    body += (fr ? "Bonjour " : "Dear ") + first_name + (last_name.empty() ? "" : " " + last_name) + ",\n\n";
    const bool board = m.type == "board";
    if (fr) {
        body += std::string(board ? "Le conseil d'administration vous informe de sa prochaine réunion"
                                  : "Vous êtes convoqué(e) à l'assemblée suivante") +
                " : " + wording::meeting_type(m.type, lang) + ", « " + m.title + " », qui se tiendra le " + when +
                " (heure de Montréal), à l'endroit suivant : " + m.location + ".\n";
    } else {
        body += std::string(board ? "The board of directors informs you of its next meeting"
                                  : "Notice is hereby given of the following meeting") +
                ": " + wording::meeting_type(m.type, lang) + ", \"" + m.title + "\", to be held on " + when +
                " (Montreal time) at: " + m.location + ".\n";
    }
    if (with_agenda && !m.agenda.empty()) {
        body += fr ? "\nOrdre du jour :\n" : "\nAgenda:\n";
        int n = 1;
        for (const auto& item : m.agenda) body += std::to_string(n++) + ". " + item + "\n";
    }
    if (!attached_titles.empty()) {
        body += fr ? "\nDocuments joints (art. 1087 C.c.Q.) :\n" : "\nAttached documents (art. 1087 C.C.Q.):\n";
        for (const auto& title : attached_titles) body += "- " + title + "\n";
    }
    if (m.justification)
        body += (fr ? "\nMotif de l'avis à court délai : " : "\nReason for the short notice: ") + *m.justification + "\n";
    if (!board)
        body += fr ? "\nSi vous ne pouvez y assister, vous pouvez vous faire représenter par procuration.\n"
                   : "\nIf you cannot attend, you may be represented by proxy.\n";
    body += fr ? "\nLe conseil d'administration\n" : "\nThe board of directors\n";
    body += syndicate_name + "\n";
    return {subject, body};
}

QueuedNotices queue_notices(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& channel,
                            bool with_agenda, const NoticePackage& package, Instant now) {
    const std::string name = syndicate_name(db, syndicate_id);
    QueuedNotices out;
    std::vector<std::string> titles;
    for (const auto& d : package.sent) titles.push_back(d.title);
    const std::string attachments = sent_ids_json(package);
    // A board meeting is the directors' (catalogue §3.2): its notice goes to those in office on its day.
    auto recipients = m.type == "board" ? directors_in_office(db, syndicate_id, montreal_date(m.scheduled_at))
                                        : active_co_owners(db, syndicate_id);
    for (auto& r : recipients) {
        if (!r.email) {
            out.without_email.push_back(std::move(r));
            continue;
        }
        const auto [subject, body] =
            notice_message(m, name, r.first, r.last, wording::language_of(r.language), with_agenda, titles);
        queue_message(db, syndicate_id, {m.id, r.id, channel, *r.email, r.language, subject, body, "meeting", m.id, attachments},
                      to_utc_iso(now));
        ++out.queued;
    }
    return out;
}

std::pair<std::string, std::string> supplementary_message(const Meeting& m, const std::string& syndicate_name,
                                                          const std::string& first_name, const std::string& last_name,
                                                          wording::Language lang, const std::string& question) {
    const bool fr = lang == wording::Language::fr;
    std::string subject = (fr ? "Avis supplémentaire — ordre du jour : " : "Supplementary notice — agenda: ") + m.title;
    for (auto& c : subject)
        if (c == '\r' || c == '\n') c = ' ';
    std::string body = (fr ? "Bonjour " : "Dear ") + first_name + " " + last_name + ",\n\n";
    body += fr ? "La question suivante a été inscrite à l'ordre du jour de l'assemblée « " + m.title + " » du " +
                     wording::date_time(m.scheduled_at, lang) + " (heure de Montréal) :\n"
               : "The following question has been added to the agenda of the meeting \"" + m.title + "\" of " +
                     wording::date_time(m.scheduled_at, lang) + " (Montreal time):\n";
    body += "\n" + question + "\n";
    body += fr ? "\nOrdre du jour à jour :\n" : "\nAgenda as it now stands:\n";
    int n = 1;
    for (const auto& item : m.agenda) body += std::to_string(n++) + ". " + item + "\n";
    body += fr ? "\nLe conseil d'administration\n" : "\nThe board of directors\n";
    body += syndicate_name + "\n";
    return {subject, body};
}

QueuedNotices queue_supplementary_notices(Database& db, const std::string& syndicate_id, const Meeting& m,
                                          const std::string& question, Instant now) {
    const std::string name = syndicate_name(db, syndicate_id);
    QueuedNotices out;
    for (auto& r : active_co_owners(db, syndicate_id)) {
        if (!r.email) {
            out.without_email.push_back(std::move(r));
            continue;
        }
        const auto [subject, body] = supplementary_message(m, name, r.first, r.last, wording::language_of(r.language), question);
        queue_message(db, syndicate_id, {m.id, r.id, m.notice_channel.value_or("email"), *r.email, r.language, subject, body},
                      to_utc_iso(now));
        ++out.queued;
    }
    return out;
}

}  // namespace syndic::meetings
