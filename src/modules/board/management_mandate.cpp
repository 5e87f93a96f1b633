// set_management_mandate (catalogue §4.3): the manager's (gérant) mandate, which the board grants
// by a passed board resolution (art. 1085, delegation of day-to-day administration). One mandate
// is active at a time: a mandate starting later ends the active one the day before it starts; one
// with the active mandate's startOn changes that mandate; endOn ends it (docs/decisions.md, "Board").
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

constexpr const char* mandate_columns =
    "id, manager_name, firm, contractor_id, email, phone, start_on, end_on, fee_cents_per_month, delegated_powers, "
    "resolution_id, document_id, status, created_at, updated_at";

// The mandate; its status shows ended once its endOn has passed (`today`).
json read_mandate(SQLite::Statement& q, const std::string& today) {
    const auto end_on = nullable_text(q.getColumn(7));
    const bool lapsed = end_on.is_string() && end_on.get<std::string>() < today;
    return {{"id", q.getColumn(0).getString()},
            {"managerName", q.getColumn(1).getString()},
            {"firm", nullable_text(q.getColumn(2))},
            {"contractorId", nullable_text(q.getColumn(3))},
            {"email", nullable_text(q.getColumn(4))},
            {"phone", nullable_text(q.getColumn(5))},
            {"startOn", q.getColumn(6).getString()},
            {"endOn", end_on},
            {"feeCentsPerMonth", nullable_integer(q.getColumn(8))},
            {"delegatedPowers", json::parse(q.getColumn(9).getString())},
            {"resolutionId", q.getColumn(10).getString()},
            {"documentId", nullable_text(q.getColumn(11))},
            {"status", lapsed ? "ended" : q.getColumn(12).getString()},
            {"createdAt", shown_time(q.getColumn(13))},
            {"updatedAt", shown_time(q.getColumn(14))}};
}

json mandate_by_id(Database& db, const std::string& id, const std::string& today) {
    auto q = db.prepare(std::string("SELECT ") + mandate_columns + " FROM management_mandates WHERE id = ?");
    q->bind(1, id);
    q->executeStep();
    return read_mandate(*q, today);
}

struct ActiveMandate {
    std::string id, start_on;
    std::optional<std::string> end_on;
};

std::optional<ActiveMandate> active_mandate(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT id, start_on, end_on FROM management_mandates WHERE syndicate_id = ? AND status = 'active'");
    q->bind(1, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    ActiveMandate m{q->getColumn(0).getString(), q->getColumn(1).getString(), std::nullopt};
    if (!q->getColumn(2).isNull()) m.end_on = q->getColumn(2).getString();
    return m;
}

}  // namespace

json mandate_in_force(Database& db, const std::string& syndicate_id, const std::string& as_of) {
    auto q = db.prepare(std::string("SELECT ") + mandate_columns +
                        " FROM management_mandates WHERE syndicate_id = ? AND start_on <= ?2 "
                        "AND (end_on IS NULL OR end_on >= ?2) ORDER BY start_on DESC, created_at DESC LIMIT 1");
    bind_parameters(*q, syndicate_id, as_of);
    if (!q->executeStep()) return nullptr;
    return read_mandate(*q, as_of);
}

json set_management_mandate(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string resolution_id = a.text("resolutionId");
    const auto contractor_id = a.optional_text("contractorId");
    const auto document_id = a.optional_text("documentId");

    // Every record named exists, before any rule.
    governance::require_resolution_exists(call, resolution_id, "/resolutionId");
    if (contractor_id) require_record_exists(call.db, syndicate, "contractors", *contractor_id, "/contractorId", RecordState::active);
    if (document_id) require_document(call.db, syndicate, *document_id, "/documentId");

    const auto start_on = *date_argument(a, "startOn");
    const auto end_on = date_argument(a, "endOn");
    if (end_on && *end_on < start_on)
        throw DomainError(syndic::codes::invalid_date_range,
                          "The mandate ends on " + *end_on + ", before it starts on " + start_on + ".")
            .at("/endOn")
            .with("startOn", start_on)
            .with("endOn", *end_on);
    // Art. 1085: the board appoints the manager and delegates to them.
    governance::require_passed_resolution(call, resolution_id, governance::DecisionBody::board, "simple", "/resolutionId");

    const auto active = active_mandate(call.db, syndicate);
    if (active && start_on < active->start_on)
        throw DomainError(syndic::codes::invalid_date_range,
                          "The active mandate started on " + active->start_on +
                              "; a new mandate starts after it (the same day changes it).")
            .at("/startOn")
            .with("startOn", start_on)
            .with("activeStartOn", active->start_on);

    const auto now = to_utc_iso(call.clock.now());
    const auto day = today(call);
    const bool replaces = active && start_on > active->start_on;
    if (replaces) {
        // The previous mandate ends the day before the new one starts, or earlier if it said so.
        const auto eve = add_calendar_days(start_on, -1);
        auto end = call.db.prepare(
            "UPDATE management_mandates SET status = 'ended', end_on = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*end, active->end_on && *active->end_on < eve ? *active->end_on : eve, now, active->id);
        end->exec();
    }
    const std::string id = active && !replaces ? active->id : new_record_id();
    const std::string status = end_on && *end_on < day ? "ended" : "active";
    auto q = call.db.prepare(
        active && !replaces
            ? "UPDATE management_mandates SET manager_name = ?2, firm = ?3, contractor_id = ?4, email = ?5, phone = ?6, "
              "start_on = ?7, end_on = ?8, fee_cents_per_month = ?9, delegated_powers = ?10, resolution_id = ?11, "
              "document_id = ?12, status = ?13, updated_at = ?14 WHERE id = ?1 AND syndicate_id = ?15"
            : "INSERT INTO management_mandates (id, manager_name, firm, contractor_id, email, phone, start_on, end_on, "
              "fee_cents_per_month, delegated_powers, resolution_id, document_id, status, created_at, updated_at, "
              "syndicate_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?15)");
    // The texts that may be refused, in the order they were read.
    const auto manager_name = a.nonblank("managerName");
    json powers = json::array();
    for (const auto& p : a.value("delegatedPowers")) powers.push_back(nonblank_text(p, "/delegatedPowers"));
    bind_parameters(*q, id, manager_name, nonempty_text(a.patch_text("firm")), nonempty_text(contractor_id),
                    nonempty_text(a.patch_text("email")), nonempty_text(a.patch_text("phone")), start_on, nonempty_text(end_on),
                    a.optional_integer("feeCentsPerMonth"), powers.dump(), resolution_id,
                    nonempty_text(document_id), status, now, syndicate);
    q->exec();
    return mandate_by_id(call.db, id, day);
}

}  // namespace syndic::board
