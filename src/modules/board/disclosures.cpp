// record_interest_disclosure and list_interest_disclosures (catalogue §4.3): the interests a
// director declares that may put them in a conflict with the syndicate (art. 324), recorded in
// the minutes of a meeting (meetingId). A disclosure on a contractor names it (subjectId), so the
// award of a contract to it can ask that director to abstain; one on a resolution names it, so the
// director abstains on it at a board meeting (arts. 324-326, catalogue §3.2).
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/board/tools.hpp"
#include "modules/common.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"
#include "storage/bind.hpp"

namespace syndic::board {

using nlohmann::json;

namespace {

constexpr const char* disclosure_columns =
    "id, director_id, disclosed_on, subject_type, subject_id, nature, value_cents, meeting_id, document_id, active, "
    "created_at, updated_at";

json read_disclosure(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"directorId", q.getColumn(1).getString()},
            {"disclosedOn", q.getColumn(2).getString()},
            {"subjectType", q.getColumn(3).getString()},
            {"subjectId", nullable_text(q.getColumn(4))},
            {"nature", q.getColumn(5).getString()},
            {"valueCents", nullable_integer(q.getColumn(6))},
            {"meetingId", nullable_text(q.getColumn(7))},
            {"documentId", nullable_text(q.getColumn(8))},
            {"active", q.getColumn(9).getInt64() != 0},
            {"createdAt", shown_time(q.getColumn(10))},
            {"updatedAt", shown_time(q.getColumn(11))}};
}

}  // namespace

json record_interest_disclosure(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string director_id = a.text("directorId");
    const std::string subject_type = a.text("subjectType");
    const auto subject_id = a.optional_text("subjectId");
    const auto meeting_id = a.optional_text("meetingId");
    const auto document_id = a.optional_text("documentId");

    // Every record named exists, before any rule.
    require_director(call.db, syndicate, director_id, "/directorId");
    if (subject_id && subject_type == "contractor")
        require_record_exists(call.db, syndicate, "contractors", *subject_id, "/subjectId", RecordState::active);
    if (subject_id && subject_type == "resolution") governance::require_resolution_exists(call, *subject_id, "/subjectId");
    if (meeting_id) governance::require_meeting_exists(call, *meeting_id, "/meetingId");
    if (document_id) require_document(call.db, syndicate, *document_id, "/documentId");

    // Only a contractor and a resolution are records to name yet: projects and their contracts are
    // not recorded (docs/decisions.md, "Board"); they are described in nature.
    const bool named = subject_type == "contractor" || subject_type == "resolution";
    if (named && !subject_id)
        throw invalid_argument("/subjectId", "is required for a " + subject_type,
                               "Name the " + subject_type + " the director has an interest in (subjectId).");
    if (!named && subject_id)
        throw invalid_argument("/subjectId", "names no record of this subject type",
                               "Only a contractor or a resolution is named by subjectId; describe a " + subject_type +
                                   " in nature, without subjectId.");
    const auto disclosed_on = *date_argument(a, "disclosedOn");
    if (disclosed_on > today(call))
        throw DomainError(syndic::codes::invalid_date_range, "The disclosure is dated " + disclosed_on +
                                                                 ", which is in the future.")
            .at("/disclosedOn")
            .with("today", today(call));

    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO interest_disclosures (id, syndicate_id, director_id, disclosed_on, subject_type, subject_id, nature, "
        "value_cents, meeting_id, document_id, active, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?12, ?12)");
    bind_parameters(*q, id, syndicate, director_id, disclosed_on, subject_type, subject_id, a.nonblank("nature"),
                    a.optional_integer("valueCents"), meeting_id, document_id, a.flag("active", true) ? 1 : 0,
                    now);
    q->exec();

    auto read = call.db.prepare(std::string("SELECT ") + disclosure_columns + " FROM interest_disclosures WHERE id = ?");
    read->bind(1, id);
    read->executeStep();
    auto result = read_disclosure(*read);
    // The change is a disclosure's; the event is the director's declaring it.
    call.name_event("director.interest_disclosed", "interest-disclosure", id);
    return result;
}

json list_interest_disclosures(const ToolCall& call) {
    return list_page(call, disclosure_columns,
                     "FROM interest_disclosures r WHERE r.syndicate_id = :syndicate "
                     "AND (:directorId IS NULL OR r.director_id = :directorId) "
                     "AND (:subjectType IS NULL OR r.subject_type = :subjectType) "
                     "AND (:subjectId IS NULL OR r.subject_id = :subjectId) AND (:active IS NULL OR r.active = :active)",
                     "r.disclosed_on DESC, r.created_at DESC, r.id",
                     {{"directorId"}, {"subjectType"}, {"subjectId"}, {"active", ListValue::boolean}}, read_disclosure);
}

}  // namespace syndic::board
