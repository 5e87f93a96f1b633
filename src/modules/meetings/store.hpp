// The meetings module's rows: meetings, attendees, resolutions, minutes documents and the notice
// outbox, found and written in SQL within one syndicate. Knows storage and the co-owners table;
// not JSON shapes, the rules of meetings, wording or the tool calls.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/fraction.hpp"
#include "modules/governance/resolution_outcome.hpp"

namespace syndic {
class Database;
struct PageRequest;
}  // namespace syndic

namespace syndic::meetings {

struct Meeting {
    std::string id;
    std::string title;
    std::string type;
    std::string status;
    Instant scheduled_at;
    std::string location;
    std::vector<std::string> agenda;
    std::optional<std::string> notice_sent_at;
    std::optional<std::string> notice_channel;
    bool notice_with_agenda = false;
    std::optional<std::string> justification;
    std::string created_at, updated_at;
    // Adjournment (art. 1089): the meeting this one reconvenes, the one reconvening this one, and
    // the quorum rule: "standard", or "adjourned" for a reconvened meeting.
    std::optional<std::string> adjourned_from_meeting_id, reconvened_meeting_id;
    std::string quorum_rule = "standard";
    std::string agenda_additions = "[]";  // as stored: a JSON array (art. 1088)
    std::optional<std::string> adjournment;  // as stored: {reason, justification}, once adjourned
    std::optional<std::string> minutes_sent_at;
    std::string notice_package = "[]";       // as stored: the ids of the documents sent with the notice (art. 1087)
    std::optional<std::string> requisition;  // as stored: {receivedOn, coOwnerIds} (art. 352), if requisitioned
    // The sitting, as update_meeting records it for the minutes: who chaired and who took the
    // minutes, when it opened and closed (stored UTC instants); none until recorded.
    std::optional<std::string> chair, secretary, opened_at, closed_at;
};

struct Attendee {
    std::string co_owner_id;
    std::string name;
    Fraction fraction;
    std::string attendance;
    std::optional<std::string> proxy_holder;
};

struct Resolution {
    std::string id, meeting_id, title, description, majority;  // meeting_id empty for a written resolution
    int position = 0;
    bool recorded = false;
    Fraction votes_for, votes_against, votes_abstain;
    std::optional<std::string> body, source, decided_on;  // as stored (null for a meeting's: read from it)
    // Ballots (art. 1098): once recorded, the persons for and those entitled to vote, counted by
    // person or by record (headcount_basis).
    bool ballots_recorded = false;
    std::optional<std::int64_t> headcount_for, headcount_entitled;
    std::optional<std::string> headcount_basis;  // persons | records
    // The quorum when the votes were recorded: what the majority is measured against, what the
    // authorising check reads (meetings migration 007).
    std::optional<governance::QuorumSnapshot> quorum;
};

// A minutes document as recorded (its path is the server's).
struct MinutesRecord {
    std::string document_id;
    bool draft = false;
    std::string language, path;
    std::int64_t pages = 0, size_bytes = 0;
    std::string sha256, created_at;
};

// A co-owner as a notice addresses them.
struct Recipient {
    std::string id, first, last, language;
    std::optional<std::string> email;
};

std::optional<Meeting> find_meeting(Database& db, const std::string& syndicate_id, const std::string& id);
// The meeting, or MEETING_NOT_FOUND at `field`.
Meeting require_meeting(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);

// One page of the syndicate's meeting ids (latest first) and the total over all pages.
struct MeetingFilter {
    std::optional<std::string> status, type, from, to;
};
std::int64_t meeting_ids_page(Database& db, const std::string& syndicate_id, const MeetingFilter& filter,
                              const PageRequest& page, std::vector<std::string>& ids);

struct NewMeeting {
    std::string title, type, location;
    Instant scheduled_at;
    std::vector<std::string> agenda;
};
void insert_meeting(Database& db, const std::string& syndicate_id, const std::string& id, const NewMeeting& m,
                    const std::string& now);
// Sets one column of the meeting's row (the column name is the caller's constant, never input);
// nullopt stores null.
void set_meeting_column(Database& db, const std::string& meeting_id, const char* column,
                        const std::optional<std::string>& value);
std::string agenda_text(const std::vector<std::string>& agenda);  // as stored: a JSON array
void touch(Database& db, const std::string& meeting_id, const Clock& clock);

std::vector<Attendee> attendees_of(Database& db, const std::string& meeting_id);
std::int64_t resolution_count(Database& db, const std::string& meeting_id);
std::vector<Resolution> resolutions_of(Database& db, const std::string& meeting_id);
std::vector<MinutesRecord> minutes_of(Database& db, const std::string& meeting_id);
// Final minutes created at or after `since` (the meeting's last change).
bool has_final_minutes_since(Database& db, const std::string& meeting_id, const std::string& since);

// Appends a resolution after the meeting's last one; returns it as stored.
Resolution insert_resolution(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                             const std::string& id, const std::string& title, const std::string& description,
                             const std::string& majority, const std::string& now);
std::optional<Resolution> find_resolution(Database& db, const std::string& syndicate_id, const std::string& id);
void store_votes(Database& db, const Resolution& r, const std::string& now);

// Ballots (art. 1098): each co-owner's choice on a resolution, weighed by their roll votes.
struct Ballot {
    std::string co_owner_id, choice, cast_by;  // choice for|against|abstain; cast_by owner|proxy
    Fraction votes;
};
std::vector<Ballot> ballots_of(Database& db, const std::string& resolution_id);
void delete_ballots(Database& db, const std::string& resolution_id);
void upsert_ballot(Database& db, const std::string& syndicate_id, const std::string& resolution_id, const Ballot& b,
                   const std::string& now);
// The resolution's totals from its ballots, with the head count and what it is measured against.
void store_ballot_totals(Database& db, const Resolution& r, const std::string& now);

// An active co-owner's full name and fraction (units), or nullopt.
struct CoOwnerShare {
    std::string name;
    std::int64_t fraction_units = 0;
};
std::optional<CoOwnerShare> active_co_owner(Database& db, const std::string& syndicate_id, const std::string& id);
void upsert_attendance(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                       const std::string& co_owner_id, const CoOwnerShare& share, const std::string& attendance,
                       const std::optional<std::string>& proxy_holder, const std::string& now);

// The meeting becomes notice-sent, with how and when the notice went out.
void mark_notice_sent(Database& db, const std::string& meeting_id, const std::string& now, const std::string& channel,
                      bool with_agenda, const std::optional<std::string>& justification);
std::vector<Recipient> active_co_owners(Database& db, const std::string& syndicate_id);
// The directors in office on `day` (governance/in_office), as a board meeting's notice addresses
// them: the co-owner's id for a director who is one ("" for an outside director), the full name as
// `first`, their e-mail (else the co-owner's), the co-owner's language (else the syndicate's
// defaultLanguage).
std::vector<Recipient> directors_in_office(Database& db, const std::string& syndicate_id, const std::string& day);
// A message to queue: `meeting_id` and `co_owner_id` empty for none (a written resolution, an
// outside director); what it is about (related_type, related_id: the meeting by default) and the
// documents attached (JSON array of ids).
struct OutboxMessage {
    std::string meeting_id, co_owner_id, channel, recipient, language, subject, body;
    std::string related_type = "meeting";
    std::string related_id = "";  // empty: the meeting
    std::string attachments = "[]";
};
void queue_message(Database& db, const std::string& syndicate_id, const OutboxMessage& message, const std::string& now);

// The minutes as a document of the documents module (kind minutes, title, file name, register
// item of the meeting's kind, visible to co-owners once final) attached to their meeting.
void insert_minutes(Database& db, const std::string& syndicate_id, const Meeting& m, const MinutesRecord& record,
                    const std::string& uploaded_by);

}  // namespace syndic::meetings
