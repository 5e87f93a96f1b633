#include "modules/units/units.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/units/unit_shares.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/references.hpp"

namespace syndic {

using nlohmann::json;

namespace {

constexpr double square_metres_per_square_foot = 0.09290304;

double round2(double x) { return std::round(x * 100.0) / 100.0; }

constexpr const char* unit_columns =
    "id, number, type, floor, area_sq_ft, area_sq_m, bedrooms, bathrooms, fraction_units, "
    "cadastral_lot, created_at, updated_at, deleted_at";

struct UnitRow {
    std::string id;
    std::string number;
    std::string type;
    Fraction fraction;
    json record;  // the unit as shown, without linkedUnits
};

UnitRow read_unit(SQLite::Statement& q) {
    UnitRow row;
    row.id = q.getColumn(0).getString();
    row.number = q.getColumn(1).getString();
    row.type = q.getColumn(2).getString();
    row.fraction = Fraction::from_units(q.getColumn(8).getInt64());
    row.record = {{"id", row.id},
                  {"number", row.number},
                  {"type", row.type},
                  {"floor", nullable_integer(q.getColumn(3))},
                  {"areaSqFt", nullable_real(q.getColumn(4))},
                  {"areaSqM", nullable_real(q.getColumn(5))},
                  {"bedrooms", nullable_integer(q.getColumn(6))},
                  {"bathrooms", nullable_real(q.getColumn(7))},
                  {"fractionPercent", percent(row.fraction)},
                  {"cadastralLot", nullable_text(q.getColumn(9))},
                  {"createdAt", shown_time(q.getColumn(10))},
                  {"updatedAt", shown_time(q.getColumn(11))}};
    if (!q.getColumn(12).isNull()) row.record["deletedAt"] = shown_time(q.getColumn(12));
    return row;
}

std::optional<UnitRow> find_unit(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + unit_columns +
                        " FROM units WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return read_unit(*q);
}

UnitRow require_unit(Database& db, const std::string& syndicate_id, const std::string& id,
                     const std::string& field) {
    auto unit = find_unit(db, syndicate_id, id);
    if (!unit) throw record_not_found("units", id, field);
    return *unit;
}

// The ids a unit is linked to: for a parking or storage unit its apartment, for an apartment its
// parking and storage units (by number).
std::vector<std::string> linked_ids(Database& db, const std::string& unit_id) {
    std::vector<std::string> ids;
    auto q = db.prepare(
        "SELECT u.id FROM (SELECT apartment_id AS linked FROM unit_links WHERE unit_id = ?1 "
        "UNION ALL SELECT unit_id FROM unit_links WHERE apartment_id = ?1) JOIN units u ON u.id = linked "
        "ORDER BY " SYNDIC_UNIT_NUMBER_ORDER("u.number"));
    q->bind(1, unit_id);
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    return ids;
}

json unit_json(Database& db, const std::string& syndicate_id, UnitRow row, bool include_linked) {
    const auto ids = linked_ids(db, row.id);
    row.record["linkedUnits"] = ids;
    if (include_linked) {
        json linked = json::array();
        for (const auto& id : ids) {
            if (auto other = find_unit(db, syndicate_id, id))
                linked.push_back({{"id", other->id},
                                  {"number", other->number},
                                  {"type", other->type},
                                  {"fractionPercent", percent(other->fraction)}});
        }
        row.record["linked"] = std::move(linked);
    }
    return std::move(row.record);
}

bool is_dependent_type(const std::string& type) { return type == "parking" || type == "storage"; }

// Sets the links of `unit` to exactly `targets` (the linkedUnits of an update or a creation).
void set_links(Database& db, const std::string& syndicate_id, const UnitRow& unit,
               const std::vector<std::string>& requested) {
    std::vector<std::string> targets;
    for (const auto& t : requested)
        if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);

    auto conflict = [](const std::string& detail, std::size_t index) {
        return DomainError(codes::link_conflict, detail).at("/linkedUnits/" + std::to_string(index));
    };
    std::vector<UnitRow> rows;
    for (std::size_t i = 0; i < targets.size(); ++i)
        rows.push_back(require_unit(db, syndicate_id, targets[i], "/linkedUnits/" + std::to_string(i)));

    if (is_dependent_type(unit.type)) {
        if (rows.size() > 1)
            throw conflict("A " + unit.type + " unit is linked to at most one apartment.", 1);
        if (!rows.empty() && rows[0].type != "apartment")
            throw conflict("Unit " + rows[0].number + " is not an apartment; a " + unit.type +
                               " unit can only be linked to an apartment.", 0);
        std::optional<std::string> current;
        {
            auto q = db.prepare("SELECT apartment_id FROM unit_links WHERE unit_id = ?");
            q->bind(1, unit.id);
            if (q->executeStep()) current = q->getColumn(0).getString();
        }
        if (!rows.empty() && current && *current != rows[0].id) {
            const auto other = find_unit(db, syndicate_id, *current);
            throw conflict(unit.type + " unit " + unit.number + " is already linked to apartment " +
                               (other ? other->number : *current) +
                               "; unlink it first (linkedUnits: []).", 0);
        }
        auto del = db.prepare("DELETE FROM unit_links WHERE unit_id = ?");
        del->bind(1, unit.id);
        del->exec();
        if (!rows.empty()) {
            auto ins = db.prepare("INSERT INTO unit_links (unit_id, syndicate_id, apartment_id) VALUES (?, ?, ?)");
            bind_parameters(*ins, unit.id, syndicate_id, rows[0].id);
            ins->exec();
        }
        return;
    }
    if (unit.type != "apartment") {
        if (!rows.empty())
            throw conflict("Only apartments, parking and storage units can be linked; unit " + unit.number +
                               " is " + unit.type + ".", 0);
        return;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!is_dependent_type(rows[i].type))
            throw conflict("Unit " + rows[i].number + " is " + rows[i].type +
                               "; an apartment is linked only to parking and storage units.", i);
        auto q = db.prepare("SELECT apartment_id FROM unit_links WHERE unit_id = ?");
        q->bind(1, rows[i].id);
        if (q->executeStep() && q->getColumn(0).getString() != unit.id) {
            const auto other = find_unit(db, syndicate_id, q->getColumn(0).getString());
            throw conflict(rows[i].type + " unit " + rows[i].number + " is already linked to apartment " +
                               (other ? other->number : q->getColumn(0).getString()) + ".", i);
        }
    }
    auto del = db.prepare("DELETE FROM unit_links WHERE apartment_id = ?");
    del->bind(1, unit.id);
    del->exec();
    for (const auto& row : rows) {
        auto ins = db.prepare("INSERT INTO unit_links (unit_id, syndicate_id, apartment_id) VALUES (?, ?, ?)");
        bind_parameters(*ins, row.id, syndicate_id, unit.id);
        ins->exec();
    }
}

void require_unique_number(Database& db, const std::string& syndicate_id, const std::string& number,
                           const std::string& except_id) {
    auto q = db.prepare(
        "SELECT id FROM units WHERE syndicate_id = ? AND number = ? COLLATE NOCASE AND deleted_at IS NULL "
        "AND id <> ?");
    bind_parameters(*q, syndicate_id, number, except_id);
    if (q->executeStep())
        throw DomainError(codes::duplicate_unit_number, "Unit number " + number + " is already used in this syndicate.")
            .at("/number");
}

// The unit's columns an argument object sets, with areas completed from one another.
struct UnitFields {
    std::vector<std::pair<std::string, json>> columns;  // column name, value (null clears)
};

UnitFields unit_fields(const Arguments& args) {
    UnitFields f;
    auto copy = [&](const char* key, const char* column) {
        if (args.has(key)) f.columns.emplace_back(column, args.value(key));
    };
    if (args.has("number")) f.columns.emplace_back("number", args.nonblank("number"));
    copy("type", "type");
    copy("floor", "floor");
    copy("bedrooms", "bedrooms");
    copy("bathrooms", "bathrooms");
    if (args.has("cadastralLot"))
        f.columns.emplace_back("cadastral_lot",
                               args.is_null("cadastralLot") ? json(nullptr) : json(trim(args.text("cadastralLot"))));
    const bool ft = args.has("areaSqFt"), m = args.has("areaSqM");
    if (ft) f.columns.emplace_back("area_sq_ft", args.value("areaSqFt"));
    if (m) f.columns.emplace_back("area_sq_m", args.value("areaSqM"));
    if (ft && !m)
        f.columns.emplace_back("area_sq_m", args.is_null("areaSqFt")
                                                ? json(nullptr)
                                                : json(round2(args.number("areaSqFt") * square_metres_per_square_foot)));
    if (m && !ft)
        f.columns.emplace_back("area_sq_ft", args.is_null("areaSqM")
                                                 ? json(nullptr)
                                                 : json(round2(args.number("areaSqM") / square_metres_per_square_foot)));
    if (args.has("fractionPercent"))
        f.columns.emplace_back("fraction_units", Fraction::from_percent(args.number("fractionPercent")).units());
    return f;
}

void bind_json(SQLite::Statement& q, int index, const json& v) {
    if (v.is_null()) q.bind(index);
    else if (v.is_string()) q.bind(index, v.get<std::string>());
    else if (v.is_boolean()) q.bind(index, v.get<bool>() ? 1 : 0);
    else if (v.is_number_integer()) q.bind(index, v.get<std::int64_t>());
    else q.bind(index, v.get<double>());
}

// Writes the fields and the update time of a unit in one statement.
void write_unit(Database& db, const std::string& id, const UnitFields& fields, const std::string& updated_at) {
    std::string sql = "UPDATE units SET ";
    for (const auto& [column, value] : fields.columns) sql += column + " = ?, ";
    sql += "updated_at = ? WHERE id = ?";
    auto q = db.prepare(sql);
    int index = 1;
    for (const auto& [column, value] : fields.columns) bind_json(*q, index++, value);
    q->bind(index++, updated_at);
    q->bind(index, id);
    q->exec();
}

json list_units(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    const auto type = a.optional_text("type");
    const auto floor = a.optional_integer("floor");
    const auto search = a.has("search") ? std::optional(a.nonblank("search")) : std::nullopt;
    const bool include_linked = a.flag("includeLinked", false);

    const std::string where =
        " FROM units WHERE syndicate_id = ?1 AND deleted_at IS NULL AND (?2 IS NULL OR type = ?2) "
        "AND (?3 IS NULL OR floor = ?3) AND (?4 IS NULL OR instr(lower(number), lower(?4)) > 0 "
        "OR instr(lower(coalesce(cadastral_lot, '')), lower(?4)) > 0)";
    auto bind_filters = [&](SQLite::Statement& q) {
        q.bind(1, call.caller.syndicate_id);
        if (type) q.bind(2, *type);
        if (floor) q.bind(3, *floor);
        if (search) q.bind(4, *search);
    };
    json data = json::array();
    const auto total = read_page(call.db, "SELECT count(*)" + where,
                                 std::string("SELECT ") + unit_columns + where + " ORDER BY " +
                                     SYNDIC_UNIT_NUMBER_ORDER("number") ", id LIMIT ?100 OFFSET ?101",
                                 page, bind_filters, [&](SQLite::Statement& q) {
                                     data.push_back(unit_json(call.db, call.caller.syndicate_id, read_unit(q), include_linked));
                                 });
    return page_envelope(std::move(data), page, total);
}

json get_unit(const ToolCall& call, const RestrictedPortionsOfUnit& restricted_portions) {
    const auto a = call.arguments();
    const std::string& id = a.text("id");
    auto unit = require_unit(call.db, call.caller.syndicate_id, id, "/id");
    auto out = unit_json(call.db, call.caller.syndicate_id, std::move(unit), a.flag("includeLinked", false));
    json portions = json::array();
    if (restricted_portions)  // answered by the declaration module when it is built
        for (const auto& p : restricted_portions(call.db, call.caller.syndicate_id, id))
            portions.push_back({{"id", p.id}, {"name", p.name}});
    out["restrictedCommonPortions"] = std::move(portions);
    return out;
}

json create_unit(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string number = a.nonblank("number");
    require_unique_number(call.db, syndicate, number, "");

    const auto before = unit_fraction_sum(call.db, syndicate).sum;
    const auto fraction = Fraction::from_percent(a.optional_number("fractionPercent").value_or(0.0));
    check_fraction_sum(before, before + fraction);

    const std::string id = new_record_id();
    const std::string now = to_utc_iso(call.clock.now());
    {
        auto q = call.db.prepare(
            "INSERT INTO units (id, syndicate_id, number, type, fraction_units, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*q, id, syndicate, number, a.text("type"), fraction.units(), now, now);
        q->exec();
    }
    write_unit(call.db, id, unit_fields(a), now);  // the optional fields, areas completed
    auto unit = require_unit(call.db, syndicate, id, "/id");
    if (a.has("linkedUnits")) {
        set_links(call.db, syndicate, unit, a.texts("linkedUnits"));
        check_lots_held(call.db, syndicate, "/linkedUnits");
    }
    json result = unit_json(call.db, syndicate, std::move(unit), false);
    return result;
}

json update_unit(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto unit = require_unit(call.db, syndicate, a.text("id"), "/id");

    if (a.has("number")) {
        const std::string number = a.nonblank("number");
        require_unique_number(call.db, syndicate, number, unit.id);
    }
    if (a.has("type") && a.text("type") != unit.type && !linked_ids(call.db, unit.id).empty())
        throw DomainError(codes::link_conflict, "Unit " + unit.number +
                                                    " is linked to other units; remove its links before changing its type.")
            .at("/type");
    const auto lot = lot_share(call.db, syndicate, unit.id);
    Fraction lot_after = lot.fraction;
    if (a.has("fractionPercent")) {
        const auto fraction = Fraction::from_percent(a.number("fractionPercent"));
        const auto before = unit_fraction_sum(call.db, syndicate).sum;
        check_fraction_sum(before, before - unit.fraction + fraction);
        lot_after = lot.fraction - unit.fraction + fraction;
    }
    const auto now = to_utc_iso(call.clock.now());
    const auto fields = unit_fields(a);
    if (!fields.columns.empty() || a.has("linkedUnits")) write_unit(call.db, unit.id, fields, now);
    // The unit's co-owners keep their share of its lot when its fraction changes.
    scale_lot_co_owners(call.db, syndicate, lot.lot_id, lot.fraction, lot_after, now);
    auto updated = require_unit(call.db, syndicate, unit.id, "/id");
    if (a.has("linkedUnits")) {
        set_links(call.db, syndicate, updated, a.texts("linkedUnits"));
        check_lots_held(call.db, syndicate, "/linkedUnits");
    }
    json result = unit_json(call.db, syndicate, std::move(updated), false);
    return result;
}

// A unit is deleted only when no live row of another table refers to it: every column whose
// foreign key points at units(id), read from the schema, so a new module's table counts without
// an edit here. Its links (unit_links) are not a use: they go with the unit. The first table in
// use refuses, its count in the error's data as "active<Table>" (activeCoOwners...).
void refuse_if_in_use(Database& db, const std::string& syndicate, const UnitRow& unit) {
    for (const auto& ref : live_references(db, "units", unit.id, syndicate)) {
        if (ref.table == "unit_links") continue;
        // How today's referring tables are named to a person; any other table by its own name.
        std::string what = std::to_string(ref.count) + " record(s) in " + ref.table + " referring to it; delete or move them first.";
        if (ref.table == "co_owners") what = std::to_string(ref.count) + " active co-owner(s); archive or move them first.";
        if (ref.table == "water_heaters")
            what = std::to_string(ref.count) + " water heater(s) in the register; delete or move them first.";
        std::string figure = "active";
        bool upper = true;
        for (char c : ref.table) {
            if (c != '_') figure += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = c == '_';
        }
        throw DomainError(codes::unit_in_use, "Unit " + unit.number + " still has " + what).at("/id").with(figure, ref.count);
    }
}

json delete_unit(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto unit = require_unit(call.db, syndicate, call.arguments().text("id"), "/id");
    refuse_if_in_use(call.db, syndicate, unit);
    const auto before = unit_fraction_sum(call.db, syndicate).sum;
    check_fraction_sum(before, before - unit.fraction, "/id");
    {
        auto q = call.db.prepare("DELETE FROM unit_links WHERE unit_id = ?1 OR apartment_id = ?1");
        q->bind(1, unit.id);
        q->exec();
    }
    {
        auto q = call.db.prepare("UPDATE units SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2");
        bind_parameters(*q, to_utc_iso(call.clock.now()), unit.id);
        q->exec();
    }
    check_lots_held(call.db, syndicate, "/id");  // the apartment it was linked to keeps its co-owners
    auto q = call.db.prepare(std::string("SELECT ") + unit_columns + " FROM units WHERE id = ?");
    q->bind(1, unit.id);
    q->executeStep();
    json result = read_unit(*q).record;
    result["linkedUnits"] = json::array();
    return result;
}

}  // namespace

FractionSum unit_fraction_sum(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(
        "SELECT coalesce(sum(fraction_units), 0), count(*) FROM units WHERE syndicate_id = ? AND deleted_at IS NULL");
    q->bind(1, syndicate_id);
    q->executeStep();
    return {Fraction::from_units(q->getColumn(0).getInt64()), q->getColumn(1).getInt64()};
}

bool fraction_sum_in_range(Fraction sum) { return sum >= fraction_sum_min && sum <= fraction_sum_max; }

DomainError::Figure figure(Fraction f) {
    if (f.units() % Fraction::units_per_percent == 0) return f.units() / Fraction::units_per_percent;
    return f.to_percent();
}

void check_fraction_sum(Fraction before, Fraction after, const std::string& field) {
    if (after == before || fraction_sum_in_range(after)) return;
    const auto hundred = Fraction::percent(100).units();
    if (std::llabs(after.units() - hundred) < std::llabs(before.units() - hundred)) return;
    throw DomainError(codes::fraction_sum_out_of_range,
                      "This change would bring the sum of unit fractions to " + after.to_string() +
                          "%, outside 99.5-100.5 (now " + before.to_string() +
                          "%); use rebalance_fractions to correct the declaration proportionally.")
        .at(field)
        .with("currentSum", figure(before))
        .with("resultingSum", figure(after))
        .with("min", figure(fraction_sum_min))
        .with("max", figure(fraction_sum_max));
}

json fraction_sum_json(const FractionSum& s) {
    return {{"sum", percent(s.sum)},
            {"unitCount", s.unit_count},
            {"min", percent(fraction_sum_min)},
            {"max", percent(fraction_sum_max)},
            {"balanced", fraction_sum_in_range(s.sum)}};
}

std::optional<std::string> active_unit_number(Database& db, const std::string& syndicate_id,
                                              const std::string& unit_id) {
    // Other modules ask this once per row they write (a bulk of 500 co-owners): one column, not
    // the whole unit.
    auto q = db.prepare("SELECT number FROM units WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, unit_id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

void register_units_module(ToolTable& table) {
    table.bind("list_units", list_units);
    table.bind("get_unit", [restricted_portions = table.question<RestrictedPortionsOfUnit>(restricted_portions_question)](
                               const ToolCall& call) -> ToolResult { return get_unit(call, *restricted_portions); });
    table.bind("create_unit", create_unit);
    table.bind("update_unit", update_unit);
    table.bind("delete_unit", delete_unit);
}

}  // namespace syndic
