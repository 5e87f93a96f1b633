// get_declaration and update_declaration: the declaration's particulars as registered and the
// governance parameters other modules read (catalogue §3.1). One row per syndicate in
// `declarations`, made on the first update; until then every parameter shows its default. The
// quorum is not a column: it is the setting requiredQuorumPercent, the one `syndic-mcp quorum`
// sets, read and written through the settings home.
#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/co_owners/active.hpp"
#include "modules/common.hpp"
#include "modules/declaration/declaration.hpp"
#include "modules/declaration/fiscal_year.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/units/units.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::declaration {

using nlohmann::json;

namespace {

enum class Kind { text, date, boolean, integer, percent, json_value, month_day };

struct Particular {
    const char* name;
    const char* column;
    Kind kind;
};

// The particulars stored one to a column, in the record's order (boardSize and developer apart).
const std::vector<Particular> particulars{
    {"registrationNumber", "registration_number", Kind::text},
    {"registeredOn", "registered_on", Kind::date},
    {"notary", "notary", Kind::text},
    {"immovableName", "immovable_name", Kind::text},
    {"address", "address", Kind::text},
    {"commonCadastralLots", "common_cadastral_lots", Kind::json_value},
    {"destination", "destination", Kind::text},
    {"horizontal", "horizontal", Kind::boolean},
    {"storeysAboveGround", "storeys_above_ground", Kind::integer},
    {"fiscalYearStart", "fiscal_year_start", Kind::month_day},
    {"arrearsInterestRatePercent", "arrears_interest_rate_units", Kind::percent},
    {"penaltiesAllowed", "penalties_allowed", Kind::boolean},
    {"nsfFeeCents", "nsf_fee_cents", Kind::integer},
    {"specialAssessmentRequiresConsultation", "special_assessment_requires_consultation", Kind::boolean},
    {"minQuotes", "min_quotes", Kind::integer},
    {"quoteThresholdCents", "quote_threshold_cents", Kind::integer},
    {"directorTermYears", "director_term_years", Kind::integer},
    {"directorsMustBeCoOwners", "directors_must_be_co_owners", Kind::boolean},
    {"vacancyFilledByBoard", "vacancy_filled_by_board", Kind::boolean},
    {"boardQuorum", "board_quorum", Kind::integer},
    {"boardNoticeDays", "board_notice_days", Kind::integer},
    {"arrearsMakeIneligible", "arrears_make_ineligible", Kind::boolean},
    {"defaultByLapseOfTime", "default_by_lapse_of_time", Kind::boolean},
};

constexpr const char* quorum_setting = "requiredQuorumPercent";

json read_value(const SQLite::Column& c, Kind kind) {
    if (c.isNull()) return nullptr;
    switch (kind) {
        case Kind::boolean: return c.getInt64() != 0;
        case Kind::integer: return c.getInt64();
        case Kind::percent: return percent(Fraction::from_units(c.getInt64()));
        case Kind::json_value: return json::parse(c.getString());
        default: return c.getString();
    }
}

std::string select_list() {
    std::string sql;
    for (const auto& p : particulars) sql += std::string(p.column) + ", ";
    return sql + "board_size_min, board_size_max, developer, updated_at";
}

// The row's values (or the columns' defaults when the syndicate has no row) into `out`; whether
// there was a row.
bool read_particulars(Database& db, const std::string& syndicate_id, json& out) {
    bool recorded = false;
    {
        auto found = db.prepare("SELECT 1 FROM declarations WHERE syndicate_id = ?");
        found->bind(1, syndicate_id);
        recorded = found->executeStep();
    }
    // Without a row, the columns' defaults, as a row made now would hold them.
    auto q = recorded ? db.prepare("SELECT " + select_list() + " FROM declarations WHERE syndicate_id = ?")
                      : db.prepare("SELECT NULL, NULL, NULL, NULL, NULL, '[]', 'residential', 0, NULL, '01-01', NULL, 0, "
                                   "NULL, 0, NULL, NULL, NULL, 0, 0, NULL, 2, 0, 1, 1, NULL, NULL, NULL");
    if (recorded) q->bind(1, syndicate_id);
    q->executeStep();
    int i = 0;
    for (const auto& p : particulars) out[p.name] = read_value(q->getColumn(i++), p.kind);
    out["boardSize"] = {{"min", q->getColumn(i).getInt64()}, {"max", nullable_integer(q->getColumn(i + 1))}};
    out["developer"] = read_value(q->getColumn(i + 2), Kind::json_value);
    out["updatedAt"] = shown_time(q->getColumn(i + 3));
    if (!recorded && out["immovableName"].is_null()) out["immovableName"] = syndicate_name(db, syndicate_id);
    return recorded;
}

json declaration_record(Database& db, const std::string& syndicate_id) {
    json d = json::object();
    const bool recorded = read_particulars(db, syndicate_id, d);
    d["quorumPercent"] = get_setting(db, syndicate_id, quorum_setting);
    d["amendments"] = amendments_json(db, syndicate_id);
    // What shows a default rather than a recorded value.
    json defaults = json::array();
    if (!recorded) {
        for (const auto& p : particulars) defaults.push_back(p.name);
        defaults.push_back("boardSize");
        defaults.push_back("developer");
    }
    if (!setting_is_set(db, syndicate_id, quorum_setting)) defaults.push_back("quorumPercent");
    d["source"] = recorded ? "recorded" : "default";
    d["defaults"] = std::move(defaults);
    return d;
}

std::int64_t count_of(Database& db, const std::string& sql, const std::string& syndicate_id) {
    auto q = db.prepare(sql);
    q->bind(1, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

void check_developer(const ToolCall& call, const json& developer) {
    if (developer.is_null()) return;
    const auto& syndicate = call.caller.syndicate_id;
    const auto ids = developer.value("coOwnerIds", json::array());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string id = ids[i];
        if (!co_owners::is_active_co_owner(call.db, syndicate, id))
            throw record_not_found("co_owners", id, "/developer/coOwnerIds/" + std::to_string(i), RecordState::active);
    }
    const auto unit = developer.find("residenceUnitId");
    if (unit != developer.end() && !unit->is_null())
        require_record_exists(call.db, syndicate, "units", *unit, "/developer/residenceUnitId", RecordState::active);
}

void bind_value(SQLite::Statement& q, int index, const json& v, Kind kind) {
    if (v.is_null()) q.bind(index);
    else if (kind == Kind::json_value) q.bind(index, v.dump());
    else if (kind == Kind::percent) q.bind(index, Fraction::from_percent(v.get<double>()).units());
    else if (v.is_boolean()) q.bind(index, v.get<bool>() ? 1 : 0);
    else if (v.is_number_integer()) q.bind(index, v.get<std::int64_t>());
    else q.bind(index, v.get<std::string>());
}

// The trimmed text of a text argument; blank clears it (null).
json text_value(const json& v) {
    if (!v.is_string()) return v;
    auto t = trim(v.get<std::string>());
    return t.empty() ? json(nullptr) : json(t);
}

}  // namespace

bool penalties_allowed(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT penalties_allowed FROM declarations WHERE syndicate_id = ?");
    q->bind(1, syndicate_id);
    return q->executeStep() && q->getColumn(0).getInt64() != 0;
}

std::string fiscal_year_start(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT fiscal_year_start FROM declarations WHERE syndicate_id = ?");
    bind_parameters(*q, syndicate_id);
    return q->executeStep() ? q->getColumn(0).getString() : std::string("01-01");
}

ArrearsParameters arrears_parameters(Database& db, const std::string& syndicate_id) {
    ArrearsParameters p;
    auto q = db.prepare(
        "SELECT arrears_interest_rate_units, nsf_fee_cents, default_by_lapse_of_time FROM declarations WHERE syndicate_id = ?");
    bind_parameters(*q, syndicate_id);
    if (!q->executeStep()) return p;
    if (!q->getColumn(0).isNull()) p.interest_rate = Fraction::from_units(q->getColumn(0).getInt64());
    if (!q->getColumn(1).isNull()) p.nsf_fee_cents = q->getColumn(1).getInt64();
    p.default_by_lapse_of_time = q->getColumn(2).getInt64() != 0;
    return p;
}

BoardParameters board_parameters(Database& db, const std::string& syndicate_id) {
    BoardParameters p;
    auto q = db.prepare(
        "SELECT board_size_min, board_size_max, director_term_years, directors_must_be_co_owners, vacancy_filled_by_board, "
        "arrears_make_ineligible, board_quorum, board_notice_days FROM declarations WHERE syndicate_id = ?");
    q->bind(1, syndicate_id);
    if (!q->executeStep()) return p;
    p.size_min = q->getColumn(0).getInt64();
    if (!q->getColumn(1).isNull()) p.size_max = q->getColumn(1).getInt64();
    if (!q->getColumn(2).isNull()) p.term_years = q->getColumn(2).getInt64();
    p.must_be_co_owners = q->getColumn(3).getInt64() != 0;
    p.vacancy_filled_by_board = q->getColumn(4).getInt64() != 0;
    p.arrears_make_ineligible = q->getColumn(5).getInt64() != 0;
    if (!q->getColumn(6).isNull()) p.quorum = q->getColumn(6).getInt64();
    p.notice_days = q->getColumn(7).getInt64();
    return p;
}

BuildingShape building_shape(Database& db, const std::string& syndicate_id) {
    BuildingShape shape;
    auto q = db.prepare("SELECT horizontal, storeys_above_ground FROM declarations WHERE syndicate_id = ?");
    bind_parameters(*q, syndicate_id);
    if (!q->executeStep()) return shape;
    shape.horizontal = q->getColumn(0).getInt64() != 0;
    if (!q->getColumn(1).isNull()) shape.storeys_above_ground = q->getColumn(1).getInt64();
    return shape;
}

TenderingRule tendering_rule(Database& db, const std::string& syndicate_id) {
    TenderingRule rule;
    auto q = db.prepare("SELECT min_quotes, quote_threshold_cents FROM declarations WHERE syndicate_id = ?");
    bind_parameters(*q, syndicate_id);
    if (!q->executeStep()) return rule;
    if (!q->getColumn(0).isNull()) rule.min_quotes = q->getColumn(0).getInt64();
    if (!q->getColumn(1).isNull()) rule.threshold_cents = q->getColumn(1).getInt64();
    return rule;
}

std::optional<DeveloperHolding> developer_holding(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT registered_on, developer FROM declarations WHERE syndicate_id = ?");
    q->bind(1, syndicate_id);
    if (!q->executeStep() || q->getColumn(0).isNull() || q->getColumn(1).isNull()) return std::nullopt;
    DeveloperHolding d;
    d.registered_on = q->getColumn(0).getString();
    const auto developer = json::parse(q->getColumn(1).getString());
    for (const auto& id : developer.value("coOwnerIds", json::array())) d.co_owner_ids.push_back(id.get<std::string>());
    if (const auto unit = developer.find("residenceUnitId"); unit != developer.end() && unit->is_string())
        d.residence_unit_id = unit->get<std::string>();
    if (d.co_owner_ids.empty()) return std::nullopt;
    return d;
}

std::optional<std::string> registered_on(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT registered_on FROM declarations WHERE syndicate_id = ?");
    q->bind(1, syndicate_id);
    if (!q->executeStep() || q->getColumn(0).isNull()) return std::nullopt;
    return q->getColumn(0).getString();
}

json get_declaration(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    auto d = declaration_record(call.db, syndicate);
    d["counts"] = {
        {"units", count_of(call.db, "SELECT count(*) FROM units WHERE syndicate_id = ? AND deleted_at IS NULL", syndicate)},
        {"bylaws", count_of(call.db, "SELECT count(*) FROM bylaws WHERE syndicate_id = ? AND status = 'active'", syndicate)},
        {"restrictedPortions",
         count_of(call.db,
                  "SELECT count(*) FROM common_portions WHERE syndicate_id = ? AND kind = 'restricted' AND deleted_at IS NULL",
                  syndicate)}};
    d["fractionSum"] = fraction_sum_json(unit_fraction_sum(call.db, syndicate));
    return d;
}

json update_declaration(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string now = to_utc_iso(call.clock.now());

    json current = json::object();
    read_particulars(call.db, syndicate, current);
    if (a.has("developer")) check_developer(call, a.value("developer"));
    if (a.has("fiscalYearStart")) {
        const std::string start = a.text("fiscalYearStart");
        if (!is_month_day(start))
            throw invalid_argument("/fiscalYearStart", "is not a day of every year",
                                   "fiscalYearStart must be a day every year has, as MM-DD (e.g. 04-01; not 02-29).");
        if (start != current["fiscalYearStart"].get<std::string>() && ledger_has_entries(call.db, syndicate))
            throw DomainError(codes::fiscal_year_locked,
                              "The ledger already has entries: the fiscal year start can no longer change.")
                .at("/fiscalYearStart")
                .with("fiscalYearStart", current["fiscalYearStart"].get<std::string>());
    }
    const auto board_size = a.object("boardSize");
    if (a.has("boardSize")) {
        if (board_size.given("max") && board_size.integer("max") < board_size.integer("min"))
            throw invalid_argument("/boardSize/max", "is less than min", "boardSize.max cannot be less than boardSize.min.");
    }

    // The row, made with its defaults on the first update, then the columns given.
    auto make = call.db.prepare(
        "INSERT INTO declarations (syndicate_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    bind_parameters(*make, syndicate, now, now);
    make->exec();
    std::string sets;
    std::vector<std::pair<const Particular*, json>> bound;
    for (const auto& p : particulars) {
        if (!a.has(p.name)) continue;
        if (p.kind == Kind::date && a.given(p.name) && !is_calendar_date(a.text(p.name)))
            throw invalid_argument(a.pointer(p.name), "is not a calendar date",
                                   std::string(p.name) + " must be a date that exists, as YYYY-MM-DD.");
        sets += std::string(p.column) + " = ?, ";
        bound.emplace_back(&p, p.kind == Kind::text ? text_value(a.value(p.name)) : a.value(p.name));
    }
    static const Particular board_min{"boardSize.min", "board_size_min", Kind::integer};
    static const Particular board_max{"boardSize.max", "board_size_max", Kind::integer};
    static const Particular developer{"developer", "developer", Kind::json_value};
    if (a.has("boardSize")) {
        sets += "board_size_min = ?, board_size_max = ?, ";
        bound.emplace_back(&board_min, board_size.value("min"));
        bound.emplace_back(&board_max, board_size.value("max"));
    }
    if (a.has("developer")) {
        sets += "developer = ?, ";
        json value = a.value("developer");
        if (value.is_object() && !value.contains("coOwnerIds")) value["coOwnerIds"] = json::array();
        if (value.is_object() && !value.contains("residenceUnitId")) value["residenceUnitId"] = nullptr;
        bound.emplace_back(&developer, value);
    }
    auto q = call.db.prepare("UPDATE declarations SET " + sets + "updated_at = ? WHERE syndicate_id = ?");
    int index = 1;
    for (const auto& [p, v] : bound) bind_value(*q, index++, v, p->kind);
    q->bind(index++, now);
    q->bind(index, syndicate);
    q->exec();

    json warnings = json::array();
    if (a.has("quorumPercent")) {
        set_setting(call.db, syndicate, quorum_setting, a.value("quorumPercent"), now);
        if (a.number("quorumPercent") < 50)
            warnings.push_back("A quorum of " + Fraction::from_percent(a.number("quorumPercent")).to_string() +
                               "% is below a majority of the votes (art. 1089); kept as the declaration says, but a "
                               "declaration is known to require more, not less.");
    }
    auto d = declaration_record(call.db, syndicate);
    d["warnings"] = std::move(warnings);
    return d;
}

}  // namespace syndic::declaration
