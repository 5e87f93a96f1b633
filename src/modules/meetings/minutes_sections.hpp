// The parts of a meeting's minutes as PDF blocks, in the reader's language: the header (at a
// reconvened meeting, the meeting it continues), the sitting (chair, secretary, opening and
// closing), attendance on the roll, the quorum and why it is reached, each resolution's result as
// the authorising checks read it with the directors it appointed, the adjournment and the
// signatures. Reads rows through the store, the roll and governance; knows no JSON shapes and
// writes nothing.
#pragma once
#include <string>
#include <vector>

#include "modules/documents/pdf_writer.hpp"
#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/meetings/wording.hpp"

namespace syndic::meetings {

struct MinutesPage {
    Database& db;
    const std::string& syndicate_id;
    const Meeting& m;
    wording::Language lang;
    std::vector<PdfBlock>& blocks;

    bool fr() const { return lang == wording::Language::fr; }
    // The French or the English text, as the minutes are written.
    std::string say(const std::string& french, const std::string& english) const { return fr() ? french : english; }
    std::string pct(Fraction f) const { return wording::percent(f, lang); }
    // A block; `keep` starts it on the page of the block after it.
    void add(PdfBlock::Kind kind, std::string text, bool keep = false) const {
        blocks.push_back({kind, std::move(text), keep});
    }
};

// Title, syndicate, type, date and place, the meeting a reconvened one continues, the notice.
void header_blocks(const MinutesPage& p);
// Who chaired and who took the minutes, when the meeting opened and closed: a line to fill by
// hand for what update_meeting did not record.
void sitting_blocks(const MinutesPage& p);
// Every co-owner on the roll with their unit, fraction and attendance (absent ones as absent); a
// board meeting's attendees as recorded.
void attendance_blocks(const MinutesPage& p, const VotingRoll& roll, const std::vector<Attendee>& attendees);
// A board meeting's attendance: every director in office on its day, with their office, present or
// absent (absent when nothing was recorded), and the count.
void board_attendance_blocks(const MinutesPage& p, const BoardRoll& roll);
// The votes present and by proxy against what quorum needs (at a board meeting, the directors
// present against boardQuorum or a majority of those in office); at a reconvened meeting, why those
// present form it and whether they hold a majority of all votes (art. 1089 para 2); without
// quorum, a warning when votes were recorded all the same.
void quorum_blocks(const MinutesPage& p, const Quorum& quorum, bool any_voted);
// Each resolution, its votes and its result: adopted only when it passed with quorum kept with
// its votes; the directors it appointed with their offices.
void resolution_blocks(const MinutesPage& p, const std::vector<Resolution>& resolutions);
// An adjourned meeting: why, and when and where it reconvenes.
void adjournment_blocks(const MinutesPage& p);
void signature_blocks(const MinutesPage& p, Instant now);

}  // namespace syndic::meetings
