#include "modules/meetings/minutes_sections.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "auth/credentials.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/meetings/rules.hpp"

namespace syndic::meetings {

namespace {

using K = PdfBlock::Kind;

const std::string blank_name = "______________________________";

// Why a meeting was adjourned (adjourn_meeting), as stored on it.
struct Adjournment {
    std::string reason;  // no-quorum | quorum-lost | other
    std::optional<std::string> justification;
};

std::optional<Adjournment> adjournment_of(const Meeting& m) {
    if (!m.adjournment) return std::nullopt;
    const auto stored = nlohmann::json::parse(*m.adjournment);
    Adjournment a{stored.value("reason", "other"), std::nullopt};
    if (stored.contains("justification") && stored["justification"].is_string()) a.justification = stored["justification"];
    return a;
}

// "faute de quorum (art. 1089 C.c.Q.)": how the meeting came to be adjourned.
std::string adjourned_because(const MinutesPage& p, const Adjournment& a) {
    if (a.reason == "no-quorum") return p.say("faute de quorum (art. 1089 C.c.Q.)", "for want of quorum (art. 1089 C.C.Q.)");
    if (a.reason == "quorum-lost")
        return p.say("après la perte du quorum en cours d'assemblée (art. 1089 C.c.Q.)",
                     "after quorum was lost during the meeting (art. 1089 C.C.Q.)");
    return p.say("pour le motif suivant : ", "for this reason: ") + a.justification.value_or("");
}

// « de l'assemblée » of the co-owners, « de la réunion » of the board.
// Whether the declaration sets the board's quorum (boardQuorum), rather than a majority in office.
bool board_parameters_quorum(const MinutesPage& p) {
    return declaration::board_parameters(p.db, p.syndicate_id).quorum.has_value();
}

// The directors who declared an interest in the resolution and were present: they abstained.
std::vector<std::string> interested_names(const MinutesPage& p, const std::string& resolution_id) {
    const auto interested = interested_directors(p.db, p.syndicate_id, resolution_id);
    std::vector<std::string> names;
    for (const auto& s : board_roll(p.db, p.syndicate_id, p.m).seats)
        if (s.present() && interested.count(s.director_id)) names.push_back(s.name);
    return names;
}

std::string of_the(const MinutesPage& p) { return p.m.type == "board" ? "de la réunion" : "de l'assemblée"; }

std::string when_and_where(const MinutesPage& p, const Meeting& m) {
    return wording::date_time(m.scheduled_at, p.lang) + " (" + bidi_isolate(m.location) + ")";
}

// A recorded time of the sitting: the time alone on the meeting's day, else the date too.
std::string sitting_time(const MinutesPage& p, const std::optional<std::string>& stored) {
    if (!stored) return p.say("____ h ____", "____:____");
    const Instant t = stored_instant(*stored);
    if (montreal_date(t) == montreal_date(p.m.scheduled_at)) return wording::time_of_day(t, p.lang);
    return wording::date_time(t, p.lang);
}

std::string attendee_line(const MinutesPage& p, const std::string& attendance,
                          const std::optional<std::string>& proxy_holder) {
    std::string line = wording::attendance(attendance, p.lang);
    if (proxy_holder) line += p.say(" (mandataire : ", " (proxy holder: ") + bidi_isolate(*proxy_holder) + ")";
    return line;
}

// The result a secretary signs: what the votes decided, as an act would be checked on it (the
// quorum kept with the votes; art. 1089 para 2 at a reconvened meeting).
std::string result_of(const MinutesPage& p, const Resolution& r) {
    const auto o = outcome(r);
    if (o == "pending")
        return p.m.reconvened_meeting_id ? p.say("non mise aux voix ; reportée à l'assemblée de reprise.",
                                                 "not put to the vote; carried over to the reconvened meeting.")
                                         : wording::outcome(o, p.lang);
    if (o == "passed") {
        if (r.quorum && r.quorum->reached) return wording::outcome(o, p.lang);
        return p.say("NON ADOPTÉE — la majorité requise est obtenue, mais le quorum n'était pas atteint lors du vote : "
                     "la résolution n'autorise aucun acte.",
                     "NOT ADOPTED — the majority required was reached, but quorum was not when the votes were taken: "
                     "the resolution authorises no act.");
    }
    const bool needs_majority_of_all = r.majority == "absolute" || r.majority == "double";
    if (needs_majority_of_all && r.quorum && r.quorum->rule == "adjourned" && !r.quorum->majority_of_all_votes)
        return p.say("REJETÉE — à une assemblée de reprise, une décision des articles 1097 ou 1098 C.c.Q. exige que les voix "
                     "en présence ou par procuration forment la majorité des voix de tous les copropriétaires "
                     "(art. 1089, al. 2), ce qui n'était pas le cas.",
                     "REJECTED — at a reconvened meeting, a decision of art. 1097 or 1098 C.C.Q. needs the votes present "
                     "or by proxy to be a majority of all the co-owners' votes (art. 1089 para. 2), which they were not.");
    return wording::outcome(o, p.lang);
}

// Those appointed on the resolution, kept on one page with its result.
void elected_blocks(const MinutesPage& p, const std::vector<governance::AppointedDirector>& appointed,
                    const std::string& resolution_id) {
    std::vector<const governance::AppointedDirector*> on_it;
    for (const auto& d : appointed)
        if (d.resolution_id == resolution_id) on_it.push_back(&d);
    bool first = true;
    for (const auto* director : on_it) {
        const auto& d = *director;
        if (first)
            p.add(K::paragraph, p.m.type == "board" ? p.say("Nomination au conseil d'administration :", "Appointed to the board of directors:")
                                                    : p.say("Élection au conseil d'administration :", "Elected to the board of directors:"),
                  true);
        first = false;
        std::string term = d.term_end ? p.say("mandat du ", "term from ") + wording::day(d.term_start, p.lang) +
                                            p.say(" au ", " to ") + wording::day(*d.term_end, p.lang)
                                      : p.say("mandat à compter du ", "term from ") + wording::day(d.term_start, p.lang);
        p.add(K::item, bidi_isolate(d.name) + " — " + wording::office(d.role, p.lang) + " — " + term, director != on_it.back());
    }
}

}  // namespace

void header_blocks(const MinutesPage& p) {
    const auto& m = p.m;
    p.add(K::title, p.say("Procès-verbal — ", "Minutes — ") + m.title);
    p.add(K::subtitle, syndicate_name(p.db, p.syndicate_id));
    std::string type = wording::meeting_type(m.type, p.lang);
    if (m.adjourned_from_meeting_id) type += p.say(" — reprise après ajournement", " — reconvened after adjournment");
    if (m.reconvened_meeting_id) type += p.say(" — ajournée", " — adjourned");
    p.add(K::subtitle, type);
    p.add(K::spacer, "");
    p.add(K::paragraph, p.say("Date et heure : ", "Date and time: ") + wording::date_time(m.scheduled_at, p.lang) +
                            p.say(" (heure de Montréal)", " (Montreal time)"));
    p.add(K::paragraph, p.say("Lieu : ", "Location: ") + m.location);
    if (m.adjourned_from_meeting_id) {
        const auto from = find_meeting(p.db, p.syndicate_id, *m.adjourned_from_meeting_id);
        const auto why = from ? adjournment_of(*from) : std::nullopt;
        if (from)
            p.add(K::paragraph, p.say("Cette assemblée est la reprise de l'assemblée convoquée pour le ",
                                      "This meeting reconvenes the meeting called for ") +
                                    when_and_where(p, *from) +
                                    (why ? p.say(", ajournée ", ", adjourned ") + adjourned_because(p, *why) : "") + ".");
    }
    if (m.notice_sent_at)
        p.add(K::paragraph, p.say("Avis de convocation envoyé le ", "Notice sent on ") +
                                wording::date_time(stored_instant(*m.notice_sent_at), p.lang) + ".");
    if (m.justification)
        p.add(K::paragraph, p.say("Motif de l'avis à court délai : ", "Reason for the short notice: ") + *m.justification);
}

void sitting_blocks(const MinutesPage& p) {
    const auto& m = p.m;
    p.add(K::spacer, "");
    p.add(K::paragraph, p.say("Présidence " + of_the(p) + " : ", "Chair of the meeting: ") +
                            (m.chair ? bidi_isolate(*m.chair) : blank_name));
    p.add(K::paragraph, p.say("Secrétariat " + of_the(p) + " : ", "Secretary of the meeting: ") +
                            (m.secretary ? bidi_isolate(*m.secretary) : blank_name));
    const bool adjourned = m.reconvened_meeting_id.has_value();
    p.add(K::paragraph, p.say("Ouverture " + of_the(p) + " : ", "Opened at: ") + sitting_time(p, m.opened_at) + " · " +
                            (adjourned ? p.say("ajournement : ", "adjourned at: ") : p.say("levée : ", "closed at: ")) +
                            sitting_time(p, m.closed_at));
}

void board_attendance_blocks(const MinutesPage& p, const BoardRoll& roll) {
    p.add(K::heading, p.say("Présences", "Attendance"));
    int present = 0, absent = 0;
    for (const auto& s : roll.seats) {
        if (!s.in_office) continue;
        s.present() ? ++present : ++absent;
        p.add(K::item, bidi_isolate(s.name) + " (" + wording::office(s.role, p.lang) + ") — " +
                           attendee_line(p, s.present() ? "present" : "absent", std::nullopt));
    }
    if (roll.in_office == 0)
        p.add(K::paragraph, p.say("Aucun administrateur en fonction ce jour-là.", "No director in office that day."));
    p.add(K::paragraph, p.say("Présence : ", "Present: ") + std::to_string(present) + p.say(" · absence : ", " · absent: ") +
                            std::to_string(absent) + p.say(" — administrateurs en fonction : ", " — directors in office: ") +
                            std::to_string(roll.in_office) + ".");
}

void attendance_blocks(const MinutesPage& p, const VotingRoll& roll, const std::vector<Attendee>& attendees) {
    p.add(K::heading, p.say("Présences et procurations", "Attendance and proxies"));
    if (roll.entries.empty()) p.add(K::paragraph, p.say("Aucun copropriétaire au registre.", "No co-owner on the roll."));
    int present = 0, proxied = 0, absent = 0;
    for (const auto& e : roll.entries) {
        const std::string attendance = e.attendance.value_or("absent");
        std::optional<std::string> holder;
        for (const auto& a : attendees)
            if (a.co_owner_id == e.co_owner_id) holder = a.proxy_holder;
        (attendance == "present" ? present : attendance == "proxy" ? proxied : absent)++;
        std::string line = bidi_isolate(e.name) + " — " + p.say("unité ", "unit ") + bidi_isolate(e.unit_number) + " — " +
                           p.pct(e.fraction) + " — " + attendee_line(p, attendance, holder);
        if (e.status == "suspended-arrears")
            line += p.say(" — droit de vote suspendu (art. 1094 C.c.Q.)", " — voting suspended (art. 1094 C.C.Q.)");
        p.add(K::item, line);
    }
    const auto n = std::to_string(roll.entries.size());
    p.add(K::paragraph, p.say("Présence : ", "Present: ") + std::to_string(present) + p.say(" · procuration : ", " · by proxy: ") +
                            std::to_string(proxied) + p.say(" · absence : ", " · absent: ") + std::to_string(absent) +
                            p.say(" — copropriétaires au registre : ", " — co-owners on the roll: ") + n + ".");
}

void quorum_blocks(const MinutesPage& p, const Quorum& quorum, bool any_voted) {
    p.add(K::heading, "Quorum");
    if (quorum.basis == "directors") {  // one vote per director; a reconvened board meeting keeps the board's quorum
        const auto n = [](Fraction f) { return std::to_string(directors_in(f)); };
        const bool by_law = board_parameters_quorum(p);
        p.add(K::paragraph, p.say("Administrateurs présents : ", "Directors present: ") + n(quorum.present) +
                                p.say(" sur ", " of ") + n(quorum.voting_base) + p.say(" en fonction · requis : ", " in office · required: ") +
                                n(quorum.required) +
                                (by_law ? p.say(" (selon le règlement de l'immeuble).", " (as the by-laws say).")
                                        : p.say(" (la majorité des administrateurs en fonction).", " (a majority of the directors in office).")));
        p.add(K::paragraph, quorum.reached() ? p.say("Le quorum est atteint.", "Quorum is reached.")
                                             : p.say("Le quorum n'est pas atteint.", "Quorum is not reached."));
        if (!quorum.reached() && any_voted)
            p.add(K::paragraph, p.say("Attention : sans quorum, le conseil ne peut valablement délibérer ; les résultats "
                                      "ci-dessous sont consignés tels que votés.",
                                      "Note: without quorum the board cannot validly decide; the results below are "
                                      "recorded as voted."));
        return;
    }
    const std::string votes = p.say("Voix en présence : ", "Votes present: ") + p.pct(quorum.present) +
                              p.say(" · par procuration : ", " · by proxy: ") + p.pct(quorum.proxied) +
                              p.say(" · total : ", " · total: ") + p.pct(quorum.total());
    if (quorum.rule == "adjourned") {
        // Art. 1089 para 2: no share of the votes is required, so none is printed.
        p.add(K::paragraph, p.say("Assemblée de reprise après un ajournement faute de quorum : les copropriétaires qui y "
                                  "assistent ou s'y font représenter en forment le quorum, quel que soit le nombre de leurs "
                                  "voix (art. 1089, al. 2 C.c.Q.).",
                                  "Meeting reconvened after an adjournment for want of quorum: the co-owners who attend it "
                                  "in person or by proxy form its quorum, whatever their votes (art. 1089 para. 2 C.C.Q.)."));
        const auto heads = quorum.represented_headcount;
        p.add(K::paragraph, votes + p.say(", de ", ", of ") + std::to_string(heads) +
                                (heads == 1 ? p.say(" copropriétaire.", " co-owner.") : p.say(" copropriétaires.", " co-owners.")));
    } else {
        p.add(K::paragraph, votes + p.say(" · requis : ", " · required: ") + p.pct(quorum.required) + ".");
    }
    p.add(K::paragraph, quorum.reached() ? p.say("Le quorum est atteint.", "Quorum is reached.")
                                         : p.say("Le quorum n'est pas atteint.", "Quorum is not reached."));
    if (quorum.rule == "adjourned" && quorum.reached()) {
        const std::string of = " (" + p.pct(quorum.total()) + p.say(" sur ", " of ") + p.pct(quorum.voting_base) + ")";
        p.add(K::paragraph, quorum.majority_of_all_votes()
                                ? p.say("Ces voix forment la majorité des voix de tous les copropriétaires" + of +
                                            " : l'assemblée peut prendre les décisions des articles 1097 et 1098 C.c.Q.",
                                        "These votes are a majority of all the co-owners' votes" + of +
                                            ": the meeting may take decisions of arts. 1097 and 1098 C.C.Q.")
                                : p.say("Ces voix ne forment pas la majorité des voix de tous les copropriétaires" + of +
                                            " : les décisions des articles 1097 et 1098 C.c.Q. ne peuvent y être prises.",
                                        "These votes are not a majority of all the co-owners' votes" + of +
                                            ": decisions of arts. 1097 and 1098 C.C.Q. cannot be taken at it."));
    }
    if (!quorum.reached() && any_voted)
        p.add(K::paragraph, p.say("Attention : sans quorum, l'assemblée ne peut valablement délibérer ; les résultats "
                                  "ci-dessous sont consignés tels que votés.",
                                  "Note: without quorum the meeting cannot validly decide; the results below are "
                                  "recorded as voted."));
}

void resolution_blocks(const MinutesPage& p, const std::vector<Resolution>& resolutions) {
    const auto appointed = governance::directors_appointed_at(p.db, p.syndicate_id, p.m.id);
    p.add(K::heading, p.say("Résolutions", "Resolutions"));
    if (resolutions.empty()) p.add(K::paragraph, p.say("Aucune résolution.", "No resolutions."));
    for (const auto& r : resolutions) {
        p.add(K::subheading, p.say("Résolution ", "Resolution ") + std::to_string(r.position) + " — " + r.title);
        if (!r.description.empty()) p.add(K::paragraph, r.description);
        // The majority, the votes and the result stay on one page.
        p.add(K::paragraph, p.say("Majorité requise : ", "Majority required: ") +
                                (p.m.type == "board" ? wording::board_majority(r.majority, p.lang)
                                                     : wording::majority(r.majority, p.lang)),
              true);
        if (r.recorded) {
            // Votes in percent; at a board meeting, numbers of directors (one vote each).
            const bool board = p.m.type == "board";
            const auto shown = [&](Fraction f) { return board ? std::to_string(directors_in(f)) : p.pct(f); };
            std::string votes = p.say("Pour : ", "For: ") + shown(r.votes_for) + p.say(" · contre : ", " · against: ") +
                                shown(r.votes_against) + p.say(" · abstentions : ", " · abstentions: ") + shown(r.votes_abstain);
            if (r.quorum && board)
                votes += p.say(" — sur ", " — of ") + wording::directors(directors_in(r.quorum->votes_present), p.lang) +
                         (directors_in(r.quorum->votes_present) == 1 ? p.say(" présent pouvant voter", " present who may vote")
                                                                      : p.say(" présents pouvant voter", " present who may vote"));
            else if (r.quorum)
                votes += p.say(" — sur ", " — of ") + p.pct(r.quorum->votes_present) +
                         p.say(" des voix en présence ou par procuration", " of the votes present or by proxy");
            p.add(K::paragraph, votes, true);
            if (p.m.type == "board")
                for (const auto& name : interested_names(p, r.id))
                    p.add(K::paragraph, bidi_isolate(name) +
                                            p.say(" a déclaré un intérêt dans cette résolution : abstention, hors du "
                                                  "calcul de la majorité (art. 324 C.c.Q.).",
                                                  " declared an interest in this resolution and abstained (art. 324 C.C.Q.)."),
                          true);
        }
        const bool elected = std::any_of(appointed.begin(), appointed.end(), [&](const auto& d) { return d.resolution_id == r.id; });
        p.add(K::paragraph, p.say("Résultat : ", "Outcome: ") + result_of(p, r), elected);
        elected_blocks(p, appointed, r.id);
    }
}

void adjournment_blocks(const MinutesPage& p) {
    const auto why = adjournment_of(p.m);
    if (!why || !p.m.reconvened_meeting_id) return;
    const auto reconvened = find_meeting(p.db, p.syndicate_id, *p.m.reconvened_meeting_id);
    p.add(K::heading, p.say("Ajournement", "Adjournment"));
    p.add(K::paragraph, p.say("L'assemblée est ajournée ", "The meeting was adjourned ") + adjourned_because(p, *why) + ".", true);
    if (why->justification && why->reason != "other") p.add(K::paragraph, p.say("Précisions : ", "Details: ") + *why->justification, true);
    if (!reconvened) return;
    p.add(K::paragraph, p.say("Elle reprendra le ", "It will reconvene on ") + wording::date_time(reconvened->scheduled_at, p.lang) +
                            p.say(" (heure de Montréal), au lieu suivant : ", " (Montreal time), at the following place: ") + reconvened->location + ".",
          true);
    p.add(K::paragraph, reconvened->quorum_rule == "adjourned"
                            ? p.say("À la reprise, les copropriétaires qui y assisteront ou s'y feront représenter en "
                                    "formeront le quorum (art. 1089, al. 2 C.c.Q.).",
                                    "At the reconvened meeting, the co-owners who attend in person or by proxy will form "
                                    "its quorum (art. 1089 para. 2 C.C.Q.).")
                            : p.say("La reprise se tiendra avec le quorum habituel.", "The reconvened meeting needs the usual quorum."),
          true);
    p.add(K::paragraph, reconvened->notice_sent_at
                            ? p.say("Son avis de convocation a été envoyé le ", "Its notice was sent on ") +
                                  wording::date_time(stored_instant(*reconvened->notice_sent_at), p.lang) + "."
                            : p.say("Un avis de convocation de la reprise sera envoyé.",
                                    "A notice of the reconvened meeting will be sent."));
}

void signature_blocks(const MinutesPage& p, Instant now) {
    const auto& m = p.m;
    const std::string signature = p.say("Signature : ", "Signature: ") + blank_name + p.say("    Date : ", "    Date: ") + "______________";
    // The signatures stay together on one page.
    p.add(K::heading, "Signatures");
    p.add(K::paragraph, p.say("Présidence " + of_the(p) + " : ", "Chair of the meeting: ") + (m.chair ? bidi_isolate(*m.chair) : blank_name), true);
    p.add(K::paragraph, signature, true);
    p.add(K::spacer, "", true);
    p.add(K::spacer, "", true);
    p.add(K::paragraph, p.say("Secrétariat " + of_the(p) + " : ", "Secretary of the meeting: ") +
                            (m.secretary ? bidi_isolate(*m.secretary) : blank_name),
          true);
    p.add(K::paragraph, signature, true);
    p.add(K::spacer, "");
    p.add(K::paragraph, p.say("Document généré le ", "Document generated on ") + wording::date_time(now, p.lang) +
                            p.say(" par syndic-mcp.", " by syndic-mcp."));
}

}  // namespace syndic::meetings
