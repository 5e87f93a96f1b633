// The common portions (catalogue §3.1): general ones, every co-owner's, and restricted ones, for
// the use of some units only (art. 1064: their ordinary costs go to those units' co-owners).
// Which units may use a restricted portion is written in the constituting act, so changing it
// needs a recorded amendment, except when transcribing the registered declaration (initial).
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/declaration/declaration.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/units/units.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/references.hpp"

namespace syndic::declaration {

using nlohmann::json;

namespace {

constexpr const char* portion_columns =
    "r.id, r.name, r.kind, r.description, r.ordinary_costs_to, r.major_costs_to, r.amendment_id, r.created_at, "
    "r.updated_at, r.deleted_at";

std::vector<std::string> units_of(Database& db, const std::string& portion_id) {
    auto q = db.prepare(
        "SELECT cu.unit_id FROM common_portion_units cu JOIN units u ON u.id = cu.unit_id "
        "WHERE cu.common_portion_id = ? ORDER BY " SYNDIC_UNIT_NUMBER_ORDER("u.number") ", u.id");
    q->bind(1, portion_id);
    std::vector<std::string> out;
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

json read_portion(Database& db, SQLite::Statement& q) {
    json p = {{"id", q.getColumn(0).getString()},
              {"name", q.getColumn(1).getString()},
              {"kind", q.getColumn(2).getString()},
              {"description", q.getColumn(3).getString()},
              {"unitIds", units_of(db, q.getColumn(0).getString())},
              {"ordinaryCostsTo", q.getColumn(4).getString()},
              {"majorCostsTo", q.getColumn(5).getString()},
              {"amendmentId", nullable_text(q.getColumn(6))},
              {"createdAt", shown_time(q.getColumn(7))},
              {"updatedAt", shown_time(q.getColumn(8))}};
    if (!q.getColumn(9).isNull()) p["deletedAt"] = shown_time(q.getColumn(9));
    return p;
}

json find_portion(Database& db, const std::string& syndicate_id, const std::string& id, bool active_only) {
    auto q = db.prepare(std::string("SELECT ") + portion_columns +
                        " FROM common_portions r WHERE r.id = ? AND r.syndicate_id = ?" +
                        (active_only ? " AND r.deleted_at IS NULL" : ""));
    bind_parameters(*q, id, syndicate_id);
    return q->executeStep() ? read_portion(db, *q) : json(nullptr);
}

void replace_units(Database& db, const std::string& syndicate_id, const std::string& portion_id,
                   const std::vector<std::string>& unit_ids) {
    auto clear = db.prepare("DELETE FROM common_portion_units WHERE common_portion_id = ?");
    clear->bind(1, portion_id);
    clear->exec();
    for (const auto& unit : unit_ids) {
        auto q = db.prepare("INSERT INTO common_portion_units (common_portion_id, unit_id, syndicate_id) VALUES (?, ?, ?)");
        bind_parameters(*q, portion_id, unit, syndicate_id);
        q->exec();
    }
}

// Archive is refused while another record points at the portion (a logbook component, a
// reservable space...), read from the schema's foreign keys so later tables count with no edit;
// the portion's own list of units is not a use.
void check_not_in_use(const ToolCall& call, const json& portion) {
    for (const auto& ref : live_references(call.db, "common_portions", portion["id"], call.caller.syndicate_id)) {
        if (ref.table == "common_portion_units") continue;
        throw DomainError(codes::common_portion_in_use,
                          "The common portion " + portion["name"].get<std::string>() + " still has " +
                              std::to_string(ref.count) + " record(s) in " + ref.table +
                              " referring to it; archive or move them first.")
            .at("/id")
            .with("table", ref.table)
            .with("count", ref.count);
    }
}

}  // namespace

}  // namespace syndic::declaration

namespace syndic {

std::vector<UnitPortion> restricted_portions_of_unit(Database& db, const std::string& syndicate_id,
                                                     const std::string& unit_id) {
    auto q = db.prepare(
        "SELECT p.id, p.name FROM common_portions p JOIN common_portion_units cu ON cu.common_portion_id = p.id "
        "WHERE cu.unit_id = ? AND p.syndicate_id = ? AND p.kind = 'restricted' AND p.deleted_at IS NULL "
        "ORDER BY p.sort_key, p.id");
    bind_parameters(*q, unit_id, syndicate_id);
    std::vector<UnitPortion> out;
    while (q->executeStep()) out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString()});
    return out;
}

}  // namespace syndic

namespace syndic::declaration {

json list_common_portions(const ToolCall& call) {
    return list_page(call, portion_columns,
                     "FROM common_portions r WHERE r.syndicate_id = :syndicate AND (:includeArchived OR r.deleted_at IS NULL) "
                     "AND (:kind IS NULL OR r.kind = :kind) "
                     // The portions a unit may use: every general one, and the restricted ones it is entitled to.
                     "AND (:unitId IS NULL OR r.kind = 'general' OR EXISTS (SELECT 1 FROM common_portion_units cu "
                     "WHERE cu.common_portion_id = r.id AND cu.unit_id = :unitId))",
                     "r.kind, r.sort_key, r.id",
                     {{"kind"}, {"unitId"}, {"includeArchived", ListValue::boolean, "false"}},
                     [&](SQLite::Statement& q) { return read_portion(call.db, q); });
}

namespace {

// The units a restricted portion is for: those given (each an active unit of the syndicate, named
// once), else the portion's own.
std::vector<std::string> portion_unit_ids(const ToolCall& call, const json& current) {
    const auto a = call.arguments();
    std::vector<std::string> unit_ids;
    if (a.has("unitIds")) {
        std::set<std::string> seen;
        const auto ids = a.texts("unitIds");
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const std::string& id = ids[i];
            require_record_exists(call.db, call.caller.syndicate_id, "units", id, a.pointer("unitIds") + "/" + std::to_string(i),
                                  RecordState::active);
            if (seen.insert(id).second) unit_ids.push_back(id);
        }
    } else if (!current.is_null()) {
        unit_ids = current["unitIds"].get<std::vector<std::string>>();
    }
    return unit_ids;
}

// A portion's fields as they will be: those given, else the portion's; who bears its costs.
struct PortionFields {
    std::string name, kind, description, ordinary, major;
    bool restricted;
};

PortionFields portion_fields(const Arguments& a, const json& current, const std::vector<std::string>& unit_ids) {
    if (current.is_null() && !a.has("name"))
        throw invalid_argument("/name", "is required for a new common portion", "A new common portion needs its name.");
    if (current.is_null() && !a.has("kind"))
        throw invalid_argument("/kind", "is required for a new common portion",
                               "A new common portion needs its kind: general or restricted.");
    PortionFields f;
    f.name = a.has("name") ? a.nonblank("name") : current["name"].get<std::string>();
    f.kind = a.has("kind") ? a.text("kind") : current["kind"].get<std::string>();
    f.description = a.has("description") ? trim(a.text("description"))
                    : current.is_null()       ? std::string()
                                              : current["description"].get<std::string>();
    f.restricted = f.kind == "restricted";
    if (f.restricted && unit_ids.empty())
        throw invalid_argument("/unitIds", "is empty for a restricted portion",
                               "A restricted common portion is for the use of some units: name at least one.");
    if (!f.restricted && !unit_ids.empty())
        throw invalid_argument("/unitIds", "is not for a general portion",
                               "A general common portion is every co-owner's: it has no list of units.");
    f.ordinary = f.restricted ? "users" : "all";
    f.major = a.has("majorCostsTo")                              ? a.text("majorCostsTo")
              : (!current.is_null() && current["kind"] == f.kind) ? current["majorCostsTo"].get<std::string>()
                                                                  : f.ordinary;
    if (!f.restricted && f.major == "users")
        throw invalid_argument("/majorCostsTo", "is users for a general portion",
                               "A general common portion has no users apart from every co-owner: its major costs go to all.");
    return f;
}

// Who may use a restricted portion is in the constituting act (art. 1064): a change of its users
// names an amendment of that part, unless it transcribes the registered declaration (initial).
void require_users_amendment(const ToolCall& call, const std::optional<std::string>& amendment_id) {
    if (!amendment_id)
        throw DomainError(codes::amendment_required,
                          "Which units may use a restricted common portion is written in the constituting act: "
                          "record the amendment (record_declaration_amendment) and give its amendmentId, or "
                          "initial: true (admins) to transcribe the registered declaration.")
            .at("/amendmentId");
    auto part = call.db.prepare("SELECT part FROM declaration_amendments WHERE id = ?");
    part->bind(1, *amendment_id);
    part->executeStep();
    if (part->getColumn(0).getString() != "constituting-act")
        throw DomainError(codes::amendment_required,
                          "Amendment " + *amendment_id + " amends the " + part->getColumn(0).getString() +
                              "; the users of a restricted common portion change with an amendment of the "
                              "constituting act.")
            .at("/amendmentId");
}

void require_unique_portion_name(const ToolCall& call, const std::string& name, const std::string& folded,
                                 const json& current) {
    auto q = call.db.prepare(
        "SELECT id FROM common_portions WHERE syndicate_id = ? AND sort_key = ? AND deleted_at IS NULL AND id <> ?");
    bind_parameters(*q, call.caller.syndicate_id, folded,
                    current.is_null() ? std::string() : current["id"].get<std::string>());
    if (q->executeStep())
        throw DomainError(codes::duplicate_common_portion, "The syndicate already has a common portion named " + name + ".")
            .at("/name")
            .with("commonPortionId", q->getColumn(0).getString());
}

// The portion's row, inserted (no `current`) or updated; `amendment_id` when its users changed.
void write_portion(const ToolCall& call, const std::string& id, const PortionFields& f, const json& current,
                   const std::optional<std::string>& amendment_id, const std::string& folded, const std::string& now) {
    if (current.is_null()) {
        auto q = call.db.prepare(
            "INSERT INTO common_portions (id, syndicate_id, name, kind, description, ordinary_costs_to, major_costs_to, "
            "amendment_id, sort_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*q, id, call.caller.syndicate_id, f.name, f.kind, f.description, f.ordinary, f.major, amendment_id,
                        folded, now, now);
        q->exec();
        return;
    }
    auto q = call.db.prepare(
        "UPDATE common_portions SET name = ?, kind = ?, description = ?, ordinary_costs_to = ?, major_costs_to = ?, "
        "amendment_id = coalesce(?, amendment_id), sort_key = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, f.name, f.kind, f.description, f.ordinary, f.major, amendment_id, folded, now, id);
    q->exec();
}

json archive_portion(const ToolCall& call, const json& current, const std::string& now) {
    if (current.is_null())
        throw invalid_argument("/id", "is required to archive", "Name the common portion to archive with its id.");
    check_not_in_use(call, current);
    auto q = call.db.prepare("UPDATE common_portions SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2");
    bind_parameters(*q, now, current["id"].get<std::string>());
    q->exec();
    replace_units(call.db, call.caller.syndicate_id, current["id"], {});
    return find_portion(call.db, call.caller.syndicate_id, current["id"], false);
}

}  // namespace

json set_common_portion(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const bool initial = a.flag("initial", false);

    // Every record named exists, before any rule.
    json current = nullptr;
    if (a.has("id")) {
        current = find_portion(call.db, syndicate, a.text("id"), true);
        if (current.is_null()) throw record_not_found("common_portions", a.text("id"), "/id");
    }
    const auto amendment_id = a.optional_text("amendmentId");
    if (amendment_id) require_amendment(call.db, syndicate, *amendment_id, "/amendmentId");
    const auto unit_ids = portion_unit_ids(call, current);
    if (initial) require_admin(call, "transcribe the registered declaration's common portions (initial)");
    const std::string now = to_utc_iso(call.clock.now());

    if (a.flag("archive", false)) return archive_portion(call, current, now);

    const auto f = portion_fields(a, current, unit_ids);
    auto before = current.is_null() || current["kind"] != "restricted" ? std::vector<std::string>{}
                                                                        : current["unitIds"].get<std::vector<std::string>>();
    auto after = f.restricted ? unit_ids : std::vector<std::string>{};
    std::sort(before.begin(), before.end());
    std::sort(after.begin(), after.end());
    const bool users_changed = before != after;
    if (users_changed && !initial) require_users_amendment(call, amendment_id);

    const auto folded = fold_for_search(f.name);
    require_unique_portion_name(call, f.name, folded, current);

    const std::string id = current.is_null() ? new_record_id() : current["id"].get<std::string>();
    write_portion(call, id, f, current, users_changed ? amendment_id : std::nullopt, folded, now);
    if (current.is_null() || users_changed)
        replace_units(call.db, syndicate, id, f.restricted ? unit_ids : std::vector<std::string>{});
    return find_portion(call.db, syndicate, id, false);
}

}  // namespace syndic::declaration
