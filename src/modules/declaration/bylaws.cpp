// The by-laws of the immovable (règlement de l'immeuble, catalogue §3.1): list_bylaws reads the
// articles in article order, in force today or on a day (asOf); set_bylaw enters, amends or
// repeals one. Each article is kept in versions: an amendment adds a version that supersedes the
// one in force, which stays readable with asOf and ends the day before the new one takes effect
// (endedOn: its last day in force). The registered original is the admins' to transcribe
// (initial): a new article, or a correction of one no resolution has changed; every other change,
// and every repeal, needs a passed resolution of the co-owners of at least a simple majority
// (art. 1096).
#include <SQLiteCpp/Statement.h>

#include <optional>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/governance/authorisation.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::declaration {

using nlohmann::json;

namespace {

constexpr const char* bylaw_columns =
    "r.id, r.article, r.title, r.text, r.category, r.penalty_cents, r.adopted_by_resolution_id, r.deposited_on, "
    "r.effective_from, r.ended_on, r.supersedes_id, r.status, r.created_at, r.updated_at";

json read_bylaw(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"article", q.getColumn(1).getString()},
            {"title", q.getColumn(2).getString()},
            {"text", q.getColumn(3).getString()},
            {"category", q.getColumn(4).getString()},
            {"penaltyCents", nullable_integer(q.getColumn(5))},
            {"adoptedByResolutionId", nullable_text(q.getColumn(6))},
            {"depositedOn", nullable_text(q.getColumn(7))},
            {"effectiveFrom", q.getColumn(8).getString()},
            {"endedOn", nullable_text(q.getColumn(9))},
            {"supersedesId", nullable_text(q.getColumn(10))},
            {"status", q.getColumn(11).getString()},
            {"createdAt", shown_time(q.getColumn(12))},
            {"updatedAt", shown_time(q.getColumn(13))}};
}

json find_bylaw(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + bylaw_columns + " FROM bylaws r WHERE r.id = ? AND r.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    return q->executeStep() ? read_bylaw(*q) : json(nullptr);
}

// The article as it sorts: each run of digits zero-padded to 9, so 4.2 < 4.10 < 10.1.
std::string article_sort_key(const std::string& article) {
    const auto folded = fold_for_search(article);
    std::string out, digits;
    auto flush = [&] {
        if (digits.empty()) return;
        const auto start = digits.find_first_not_of('0');
        const auto trimmed = start == std::string::npos ? "0" : digits.substr(start);
        out += std::string(trimmed.size() < 9 ? 9 - trimmed.size() : 0, '0') + trimmed;
        digits.clear();
    };
    for (const char c : folded) {
        if (c >= '0' && c <= '9') digits += c;
        else {
            flush();
            out += c;
        }
    }
    flush();
    return out;
}

std::optional<std::string> active_article_holder(Database& db, const std::string& syndicate_id, const std::string& article) {
    auto q = db.prepare("SELECT id FROM bylaws WHERE syndicate_id = ? AND article = ? AND status = 'active'");
    bind_parameters(*q, syndicate_id, article);
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

// The text of a field given, or the version's, or VALIDATION_FAILED when a new article lacks it.
std::string field_or(const Arguments& args, const json& current, const char* key) {
    if (args.has(key)) return args.nonblank(key);
    if (!current.is_null()) return current[key];
    throw invalid_argument(args.pointer(key), "is required for a new article",
                           std::string("A new by-law article needs its ") + key + ".");
}

// Whether any version of the article up to `current` (its supersedesId chain) was adopted by a
// resolution: after one, the registered original is no longer the admins' to transcribe.
bool has_resolution_version(Database& db, const json& current) {
    auto q = db.prepare(
        "WITH RECURSIVE chain(id, supersedes_id, resolution_id) AS ("
        "SELECT id, supersedes_id, adopted_by_resolution_id FROM bylaws WHERE id = ?1 UNION ALL "
        "SELECT b.id, b.supersedes_id, b.adopted_by_resolution_id FROM bylaws b JOIN chain c ON b.id = c.supersedes_id) "
        "SELECT 1 FROM chain WHERE resolution_id IS NOT NULL LIMIT 1");
    bind_parameters(*q, current["id"].get<std::string>());
    return q->executeStep();
}

// initial (admins) transcribes the registered original: it may create an article, or correct one
// that is itself initial and has no resolution-based version; it never repeals. Anything else is
// a change of the by-laws, which needs the co-owners' resolution (RESOLUTION_REQUIRED).
void check_initial(const ToolCall& call, const json& current, bool repeal, const std::optional<std::string>& resolution_id) {
    require_admin(call, "transcribe the registered by-laws (initial)");
    if (resolution_id)
        throw invalid_argument("/resolutionId", "is not for the registered original",
                               "initial transcribes the by-laws as registered, which no resolution adopted; "
                               "leave resolutionId out, or initial out for an amendment.");
    if (repeal)
        throw DomainError(codes::resolution_required,
                          "A repeal is a change of the by-laws, never a transcription of the registered original: it "
                          "needs a passed resolution of the co-owners (resolutionId, art. 1096), without initial.")
            .at("/initial");
    if (!current.is_null() && has_resolution_version(call.db, current))
        throw DomainError(codes::resolution_required,
                          "Article " + current["article"].get<std::string>() +
                              " has been changed by a resolution of the co-owners since it was registered: a further "
                              "change needs their passed resolution (resolutionId, art. 1096), without initial.")
            .at("/initial")
            .with("bylawId", current["id"].get<std::string>());
}

// Who decided a change of the by-laws, and from when it is in force: the registered original
// (initial, admins) from its deposit or the declaration's registration, any later change by a
// passed resolution of the co-owners (art. 1096) from its deposit or the decision's day.
struct BylawAdoption {
    std::string effective_from;
    std::optional<std::string> adopted_by;  // the resolution; none for the registered original
};

BylawAdoption bylaw_adoption(const ToolCall& call, bool initial, const std::optional<std::string>& resolution_id,
                             const std::optional<std::string>& deposited_on) {
    if (initial)
        return {deposited_on.value_or(
                    registered_on(call.db, call.caller.syndicate_id).value_or(montreal_date(call.clock.now()))),
                std::nullopt};
    if (!resolution_id)
        throw DomainError(codes::resolution_required,
                          "Changing the by-laws needs a passed resolution of the co-owners (art. 1096): give "
                          "resolutionId, or initial: true (admins) to transcribe the registered original.")
            .at("/resolutionId");
    const auto decision = governance::require_passed_resolution(call, *resolution_id, governance::DecisionBody::general,
                                                              "simple", "/resolutionId");
    // In force from its deposit in the register (art. 1060 [verify]); until it is known, from the
    // decision.
    return {deposited_on.value_or(decision.decided_on), resolution_id};
}

// The version in force ends the day before the change takes effect, and never before its own
// effectiveFrom (INVALID_DATE_RANGE at the field that set the change's day). Returns its endedOn.
std::string ended_on_before(const ToolCall& call, const json& current, const std::string& effective_from) {
    const std::string from = current["effectiveFrom"];
    const auto ended_on = add_calendar_days(effective_from, -1);
    if (ended_on < from)
        throw DomainError(syndic::codes::invalid_date_range,
                          "Article " + current["article"].get<std::string>() + " is in force from " + from +
                              "; a change taking effect on " + effective_from +
                              " would end it before it began. A change takes effect after the version it ends.")
            .at(call.arguments().has("depositedOn") ? "/depositedOn" : "/resolutionId")
            .with("effectiveFrom", from)
            .with("endedOn", ended_on);
    return ended_on;
}

// The fields of the article's version: those given, else the version's; a new article needs all.
struct BylawVersion {
    std::string article, title, text, category;
    json penalty;
};

BylawVersion version_fields(const ToolCall& call, const json& current) {
    const auto a = call.arguments();
    BylawVersion v;
    v.article = field_or(a, current, "article");
    v.title = field_or(a, current, "title");
    v.text = field_or(a, current, "text");
    if (!a.has("category") && current.is_null())
        throw invalid_argument("/category", "is required for a new article", "A new by-law article needs its category.");
    v.category = a.has("category") ? a.text("category") : current["category"].get<std::string>();
    v.penalty = a.has("penaltyCents") ? a.value("penaltyCents") : (current.is_null() ? json(nullptr) : current["penaltyCents"]);
    const auto& syndicate = call.caller.syndicate_id;
    if (!v.penalty.is_null() && !penalties_allowed(call.db, syndicate))
        throw DomainError(codes::penalties_not_allowed,
                          "The declaration does not provide for penalties (penaltiesAllowed is false): a by-law cannot "
                          "carry one.")
            .at("/penaltyCents");
    const auto holder = active_article_holder(call.db, syndicate, v.article);
    if (holder && (current.is_null() || *holder != current["id"].get<std::string>()))
        throw DomainError(codes::duplicate_bylaw_article, "Article " + v.article + " is already in force (id " + *holder +
                                                               "); amend that one with its id.")
            .at("/article")
            .with("bylawId", *holder);
    return v;
}

std::optional<std::int64_t> penalty_value(const json& penalty) {
    return penalty.is_null() ? std::nullopt : std::optional(penalty.get<std::int64_t>());
}

// An article's version as a new row, superseding `current` (null for a new article).
std::string insert_bylaw_version(const ToolCall& call, const BylawVersion& v, const json& current, const BylawAdoption& adoption,
                           const std::optional<std::string>& deposited_on, const std::string& now) {
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO bylaws (id, syndicate_id, article, title, text, category, penalty_cents, adopted_by_resolution_id, "
        "deposited_on, effective_from, supersedes_id, status, search_text, sort_key, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)");
    bind_parameters(*q, id, call.caller.syndicate_id, v.article, v.title, v.text, v.category, penalty_value(v.penalty),
                    adoption.adopted_by, deposited_on, adoption.effective_from,
                    current.is_null() ? std::nullopt : std::optional(current["id"].get<std::string>()),
                    fold_for_search(v.title) + "\n" + fold_for_search(v.text), article_sort_key(v.article), now, now);
    q->exec();
    return id;
}

// A correction of the registered original's transcription (initial on an initial article): the
// same version, its text corrected in place (the audit trail keeps what it said), in force from
// its deposit or the registration as before.
void correct_transcription(const ToolCall& call, const BylawVersion& v, const json& current,
                           const std::optional<std::string>& deposited_on, const std::string& now) {
    const auto deposit = deposited_on ? deposited_on : (current["depositedOn"].is_string()
                                                            ? std::optional(current["depositedOn"].get<std::string>())
                                                            : std::nullopt);
    const auto effective_from =
        deposit.value_or(registered_on(call.db, call.caller.syndicate_id).value_or(current["effectiveFrom"].get<std::string>()));
    auto q = call.db.prepare(
        "UPDATE bylaws SET article = ?, title = ?, text = ?, category = ?, penalty_cents = ?, deposited_on = ?, "
        "effective_from = ?, search_text = ?, sort_key = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, v.article, v.title, v.text, v.category, penalty_value(v.penalty), deposit, effective_from,
                    fold_for_search(v.title) + "\n" + fold_for_search(v.text), article_sort_key(v.article), now,
                    current["id"].get<std::string>());
    q->exec();
}

}  // namespace

json list_bylaws(const ToolCall& call) {
    return list_page(call, bylaw_columns,
                     "FROM bylaws r WHERE r.syndicate_id = :syndicate AND (:category IS NULL OR r.category = :category) "
                     "AND (:search IS NULL OR instr(r.search_text, :search) > 0) "
                     // On a day: the versions then in force, whatever they became since.
                     "AND (:asOf IS NULL OR (r.effective_from <= :asOf AND (r.ended_on IS NULL OR r.ended_on >= :asOf))) "
                     "AND (:asOf IS NOT NULL OR :status = 'all' OR r.status = :status)",
                     "r.sort_key, r.effective_from, r.id",
                     {{"category"}, {"search", ListValue::folded_search}, {"asOf", ListValue::date},
                      {"status", ListValue::text, "\"active\""}},
                     read_bylaw);
}

json set_bylaw(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const bool repeal = a.flag("repeal", false);
    const bool initial = a.flag("initial", false);
    const auto resolution_id = a.optional_text("resolutionId");

    // Every record named exists, before any rule.
    json current = nullptr;
    if (a.has("id")) {
        current = find_bylaw(call.db, syndicate, a.text("id"));
        if (current.is_null() || current["status"] != "active")
            throw DomainError(codes::bylaw_not_found,
                              "No by-law article in force with id " + a.text("id") + " in this syndicate.")
                .at("/id");
    }
    if (resolution_id) governance::require_resolution_exists(call, *resolution_id, "/resolutionId");
    if (repeal && current.is_null())
        throw invalid_argument("/id", "is required to repeal", "Name the article to repeal with its id.");
    const auto deposited_on = date_argument(a, "depositedOn");
    if (initial) check_initial(call, current, repeal, resolution_id);
    const auto adoption = bylaw_adoption(call, initial, resolution_id, deposited_on);
    const std::string now = to_utc_iso(call.clock.now());

    if (repeal) {
        const auto ended_on = ended_on_before(call, current, adoption.effective_from);
        auto q = call.db.prepare("UPDATE bylaws SET status = 'repealed', ended_on = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*q, ended_on, now, current["id"].get<std::string>());
        q->exec();
        call.name_event("bylaw.repealed", "bylaw", current["id"].get<std::string>());
        return find_bylaw(call.db, syndicate, current["id"]);
    }
    const auto version = version_fields(call, current);
    if (initial && !current.is_null()) {
        // A transcription corrected: the text shown changed, so subscribers hear of it as amended.
        correct_transcription(call, version, current, deposited_on, now);
        call.name_event("bylaw.amended", "bylaw", current["id"].get<std::string>());
        return find_bylaw(call.db, syndicate, current["id"]);
    }
    if (!current.is_null()) {
        const auto ended_on = ended_on_before(call, current, adoption.effective_from);
        auto q = call.db.prepare("UPDATE bylaws SET status = 'superseded', ended_on = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*q, ended_on, now, current["id"].get<std::string>());
        q->exec();
    }
    const auto id = insert_bylaw_version(call, version, current, adoption, deposited_on, now);
    // A new article is adopted; a new version of one in force amends it (the old one, superseded,
    // is the same article's history).
    call.name_event(current.is_null() ? "bylaw.adopted" : "bylaw.amended", "bylaw", id);
    return find_bylaw(call.db, syndicate, id);
}

}  // namespace syndic::declaration
