#include "modules/co_owners/co_owners.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ids.hpp"
#include "core/json_writer.hpp"
#include "core/text.hpp"
#include "modules/co_owners/persons.hpp"
#include "modules/common.hpp"
#include "modules/units/unit_shares.hpp"
#include "modules/units/units.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic {

using nlohmann::json;

namespace {

constexpr std::size_t bulk_limit = 500;

#define SYNDIC_CO_OWNER_COLUMNS                                                                        \
    "SELECT c.id, c.unit_id, u.number, c.first_name, c.last_name, c.email, c.phone, c.fraction_units, " \
    "c.is_resident, c.is_primary, c.language, c.has_portal_access, c.created_at, c.updated_at, c.deleted_at, "  \
    "c.same_person_as "
constexpr const char* co_owner_columns = SYNDIC_CO_OWNER_COLUMNS;
constexpr const char* co_owner_select = SYNDIC_CO_OWNER_COLUMNS "FROM co_owners c JOIN units u ON u.id = c.unit_id ";
#undef SYNDIC_CO_OWNER_COLUMNS

// A co-owner record (keys in the order nlohmann::json writes them), straight from a row of
// co_owner_columns: the one place that says how a co-owner is shown.
void write_co_owner(JsonWriter& w, SQLite::Statement& q) {
    w.begin_object();
    w.key("createdAt");
    write_shown_time(w, q.getColumn(12));
    w.key("deletedAt");
    write_shown_time(w, q.getColumn(14));
    w.key("email");
    write_nullable_text(w, q.getColumn(5));
    w.key("firstName").string(column_text(q.getColumn(3)));
    w.key("fractionPercent");
    write_percent(w, Fraction::from_units(q.getColumn(7).getInt64()));
    w.key("hasPortalAccess").boolean(q.getColumn(11).getInt() != 0);
    w.key("id").string(column_text(q.getColumn(0)));
    w.key("isPrimary").boolean(q.getColumn(9).getInt() != 0);
    w.key("isResident").boolean(q.getColumn(8).getInt() != 0);
    w.key("language").string(column_text(q.getColumn(10)));
    w.key("lastName").string(column_text(q.getColumn(4)));
    w.key("phone");
    write_nullable_text(w, q.getColumn(6));
    w.key("samePersonAs");
    write_nullable_text(w, q.getColumn(15));
    w.key("unitId").string(column_text(q.getColumn(1)));
    w.key("unitNumber").string(column_text(q.getColumn(2)));
    w.key("updatedAt");
    write_shown_time(w, q.getColumn(13));
    w.end_object();
}

struct CoOwnerRow {
    std::string id;
    std::string unit_id;
    bool is_primary = false;
    bool archived = false;
    std::string text;  // the record as JSON text
    json record;       // the same, parsed, for the rules that read it
};

CoOwnerRow read_co_owner(SQLite::Statement& q) {
    CoOwnerRow row;
    row.id = q.getColumn(0).getString();
    row.unit_id = q.getColumn(1).getString();
    row.is_primary = q.getColumn(9).getInt() != 0;
    row.archived = !q.getColumn(14).isNull();
    JsonWriter w(row.text);
    write_co_owner(w, q);
    row.record = json::parse(row.text);
    return row;
}

// Any co-owner of the syndicate, archived or not.
std::optional<CoOwnerRow> find_co_owner(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string(co_owner_select) + "WHERE c.id = ? AND c.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return read_co_owner(*q);
}

CoOwnerRow require_co_owner(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto row = find_co_owner(db, syndicate_id, id);
    if (!row) throw record_not_found("co_owners", id, "/id");
    return *row;
}

CoOwnerRow require_active_co_owner(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto row = require_co_owner(db, syndicate_id, id);
    if (row.archived)
        throw DomainError(codes::co_owner_not_found,
                          "Co-owner " + id + " is archived; restore it with restore_co_owner first.")
            .at("/id");
    return row;
}

// At most one active primary co-owner per unit (other than `except_id`). Returns the id of the
// unit's primary co-owner when `take_over` asks to replace it (the caller demotes it after its
// other checks), nullopt when there is none; DUPLICATE_PRIMARY when there is one and no take-over.
std::optional<std::string> other_primary(Database& db, const std::string& unit_id, const std::string& except_id,
                                         const std::string& field, bool take_over) {
    auto q = db.prepare(
        "SELECT id, first_name || ' ' || last_name FROM co_owners "
        "WHERE unit_id = ? AND is_primary = 1 AND deleted_at IS NULL AND id <> ?");
    bind_parameters(*q, unit_id, except_id);
    if (!q->executeStep()) return std::nullopt;
    if (take_over) return q->getColumn(0).getString();
    throw DomainError(codes::duplicate_primary,
                      "The unit already has a primary co-owner (" + q->getColumn(1).getString() +
                          "); give takeOverPrimary: true to make this one primary in its place.")
        .at(field)
        .with("primaryCoOwnerId", q->getColumn(0).getString());
}

void require_no_other_primary(Database& db, const std::string& unit_id, const std::string& except_id,
                              const std::string& field) {
    other_primary(db, unit_id, except_id, field, false);
}

// The former primary co-owner loses the role, in the same transaction as the write that gives it.
void demote_primary(Database& db, const std::optional<std::string>& id, const std::string& now) {
    if (!id) return;
    auto q = db.prepare("UPDATE co_owners SET is_primary = 0, updated_at = ? WHERE id = ?");
    bind_parameters(*q, now, *id);
    q->exec();
}

// An active co-owner of the same unit with the same name and e-mail (ignoring case and accents;
// two without e-mail match on the name), other than `except_id`: probably the same person
// entered twice. Not refused (two people of one family may share a name and an address).
std::optional<std::string> possible_duplicate(Database& db, const std::string& unit_id, const std::string& first,
                                              const std::string& last, const json& email, const std::string& except_id) {
    auto q = db.prepare(
        "SELECT id, email FROM co_owners WHERE unit_id = ? AND deleted_at IS NULL AND sort_key = ? AND id <> ? "
        "ORDER BY created_at, id");
    bind_parameters(*q, unit_id, fold_for_search(last) + '\x1f' + fold_for_search(first), except_id);
    const std::string wanted = email.is_string() ? fold_for_search(email.get<std::string>()) : "";
    while (q->executeStep())
        if ((q->getColumn(1).isNull() ? "" : fold_for_search(q->getColumn(1).getString())) == wanted)
            return q->getColumn(0).getString();
    return std::nullopt;
}

std::string search_text(const std::string& first, const std::string& last, const json& email) {
    return fold_for_search(first + " " + last + " " + (email.is_string() ? email.get<std::string>() : ""));
}

// Register order ignores case and accents: Bélanger, Bouchard, Côté, Cyr, Émond.
std::string sort_key(const std::string& first, const std::string& last) {
    return fold_for_search(last) + '\x1f' + fold_for_search(first);
}

json nullable_trimmed(const json& v) { return v.is_null() ? json(nullptr) : json(trim(v.get<std::string>())); }
// A JSON text as a value to bind: NULL for null.
std::optional<std::string> text_or_null(const json& v) {
    return v.is_string() ? std::optional(v.get<std::string>()) : std::nullopt;
}

// Creates one co-owner from validated arguments (a bulk call's row at its own pointer). Every
// check comes before the writes (the former primary's demotion, the one INSERT; a trigger notes the
// new row for the search index, co-owners migration 002). Returns its id; `duplicate` names a co-owner it
// probably repeats.
std::string insert_co_owner(Database& db, const Clock& clock, const std::string& syndicate_id, const Arguments& a,
                            std::optional<std::string>& duplicate) {
    const std::string unit_id = a.text("unitId");
    require_record_exists(db, syndicate_id, "units", unit_id, a.pointer("unitId"), RecordState::active);
    const auto same_person_as = a.optional_text("samePersonAs");
    co_owners::check_same_person_as(db, syndicate_id, same_person_as, "", a.pointer("samePersonAs"));
    const bool primary = a.flag("isPrimary", false);
    const auto former_primary =
        primary ? other_primary(db, unit_id, "", a.pointer("isPrimary"), a.flag("takeOverPrimary", false)) : std::nullopt;
    // The co-owners of a unit share its fraction; a sole co-owner holds it all by default.
    const auto lot = lot_share(db, syndicate_id, unit_id);
    const auto fraction = a.has("fractionPercent") ? Fraction::from_percent(a.number("fractionPercent"))
                                                        : unheld_fraction(lot);
    check_co_owner_fraction(lot, fraction, a.pointer("fractionPercent"));

    const std::string first = a.nonblank("firstName");
    const std::string last = a.nonblank("lastName");
    const json email = nullable_trimmed(a.value("email"));
    duplicate = possible_duplicate(db, unit_id, first, last, email, "");
    const std::string id = new_record_id();
    const std::string now = to_utc_iso(clock.now());
    demote_primary(db, former_primary, now);
    auto q = db.prepare(
        "INSERT INTO co_owners (id, syndicate_id, unit_id, first_name, last_name, email, phone, fraction_units, "
        "is_resident, is_primary, language, has_portal_access, search_text, sort_key, created_at, updated_at, same_person_as) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const auto phone = a.optional_text("phone");
    // Not given: the syndicate's setting defaultLanguage (administration), French unless changed.
    const auto language = a.has("language") ? a.text("language")
                                            : get_setting(db, syndicate_id, "defaultLanguage").get<std::string>();
    bind_parameters(*q, id, syndicate_id, unit_id, first, last, text_or_null(email),
                    phone ? std::optional(trim(*phone)) : std::nullopt, fraction.units(), a.flag("isResident", false) ? 1 : 0,
                    primary ? 1 : 0, language, a.flag("hasPortalAccess", false) ? 1 : 0, search_text(first, last, email),
                    sort_key(first, last), now, now, same_person_as);
    q->exec();
    return id;
}

// An FTS5 query for the rows whose text may hold `text` (three code points or more): at most four
// of its trigrams, not overlapping (the last one ends the text), those holding a digit first
// (rarer), then the later ones, as an AND of one-token phrases. Every row holding the text holds
// each of its trigrams, so this is a superset, and the caller checks each candidate with instr.
// Asking for every trigram as one phrase made FTS5 seek each of them in every segment of the
// index: about ten times slower for an e-mail (docs/performance.md, "Search").
std::string fts5_candidates(const std::string& text) {
    std::vector<std::size_t> starts;  // where each code point begins, then the end
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    const std::size_t points = starts.size();
    starts.push_back(text.size());
    std::vector<std::string> trigrams;
    auto add = [&](std::size_t p) {
        auto t = text.substr(starts[p], starts[p + 3] - starts[p]);
        if (std::find(trigrams.begin(), trigrams.end(), t) == trigrams.end()) trigrams.push_back(std::move(t));
    };
    for (std::size_t p = 0; p + 3 <= points; p += 3) add(p);
    add(points - 3);
    const auto has_digit = [](const std::string& t) {
        return std::any_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::reverse(trigrams.begin(), trigrams.end());  // the later ones first
    std::stable_partition(trigrams.begin(), trigrams.end(), has_digit);
    if (trigrams.size() > 4) trigrams.resize(4);
    std::string query;
    for (const auto& t : trigrams) {
        query += query.empty() ? "\"" : " AND \"";
        for (const char c : t) (query += c) += c == '"' ? "\"" : "";
        query += '"';
    }
    return query;
}

// A list's filters, bound as ?1 the syndicate, ?2 the unit, ?3 the folded search, ?4 portal access,
// ?5 the trigram index's candidates (a search of three characters or more).
struct CoOwnerFilters {
    std::string syndicate_id;
    std::optional<std::string> unit_id, search;
    std::optional<bool> portal;
    bool archived = false;
    bool trigram_search = false;

    void bind(SQLite::Statement& q) const {
        q.bind(1, syndicate_id);
        if (unit_id) q.bind(2, *unit_id);
        if (search) q.bind(3, *search);
        if (portal) q.bind(4, *portal ? 1 : 0);
        if (trigram_search) q.bind(5, fts5_candidates(*search));  // a superset, checked by instr
    }
    // A search's matches are remembered on the connection under this key (Database::recall).
    std::string memo_key() const {
        return "co_owners.search\x1f" + syndicate_id + '\x1f' + unit_id.value_or("") + '\x1f' +
               (portal ? (*portal ? "1" : "0") : "-") + (archived ? "a" : "l") + '\x1f' + search.value_or("");
    }
};

// A unit or a search narrows the list: one pass over the matches, in register order, gives their
// rowids; the page is a slice of them, then only its rows are read in full. A search's matches are
// kept on the connection until the data changes: the next page of the same search, or the same
// search again, reads no match twice. Writes the page's co-owners; returns the matches' count.
std::int64_t write_matching_page(const ToolCall& call, const CoOwnerFilters& f, const std::string& from_where,
                                 const PageRequest& page, JsonWriter& w) {
    ReadTransaction snapshot(call.db);
    using Rows = std::vector<std::int64_t>;
    const auto memo_key = f.search ? f.memo_key() : std::string();
    auto rows = f.search ? std::static_pointer_cast<const Rows>(call.db.recall(memo_key)) : nullptr;
    if (!rows) {
        auto found = std::make_shared<Rows>();
        auto q = call.db.prepare("SELECT c.rowid " + from_where + "ORDER BY c.sort_key, c.id");
        f.bind(*q);
        while (q->executeStep()) found->push_back(q->getColumn(0).getInt64());
        if (f.search) call.db.remember(memo_key, found, found->size() + 1);
        rows = std::move(found);
    }
    const auto total = static_cast<std::int64_t>(rows->size());
    std::string page_rows = "[";
    const auto first = static_cast<std::size_t>(std::min<std::int64_t>(page.offset(), total));
    const auto last = static_cast<std::size_t>(std::min<std::int64_t>(page.offset() + page.size, total));
    for (std::size_t i = first; i < last; ++i) {
        if (page_rows.size() > 1) page_rows += ',';
        page_rows += std::to_string((*rows)[i]);
    }
    page_rows += ']';
    auto q = call.db.prepare(std::string(co_owner_select) +
                             "WHERE c.rowid IN (SELECT value FROM json_each(?1)) ORDER BY c.sort_key, c.id");
    q->bind(1, page_rows);
    while (q->executeStep()) write_co_owner(w, *q);
    return total;
}

// Each list reads only what its filters need (core migration 004): the register order from the index
// on live rows (or on all rows with includeArchived), candidates from the trigram index when the
// search has three characters or more, and the total from co_owner_tallies when neither a unit
// nor a search narrows the list. The page's rowids come first, so only the rows shown are read.
ToolResult list_co_owners(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    CoOwnerFilters f;
    f.syndicate_id = call.caller.syndicate_id;
    f.unit_id = a.optional_text("unitId");
    if (a.has("search")) f.search = fold_for_search(a.nonblank("search"));
    f.portal = a.optional_flag("hasPortalAccess");
    f.archived = a.flag("includeArchived", false);
    f.trigram_search = f.search && code_point_count(*f.search) >= 3;

    // Without a unit or a search the register order is read from its index, named because the
    // planner cannot tell the partial index on live rows is the cheaper of the two.
    std::string from = f.unit_id || f.search ? "FROM co_owners c "
                       : f.archived          ? "FROM co_owners c INDEXED BY co_owners_by_name "
                                             : "FROM co_owners c INDEXED BY co_owners_live_by_name ";
    std::string where = "WHERE c.syndicate_id = ?1 ";
    if (f.trigram_search) {
        // The index's candidates and the rows it does not hold yet (co-owners migration 002); every
        // candidate's current text is checked by instr below, so stale entries drop out.
        from = "FROM (SELECT rowid AS row FROM co_owner_search WHERE co_owner_search MATCH ?5 "
               "UNION SELECT row FROM co_owner_search_pending) s CROSS JOIN co_owners c ON c.rowid = s.row ";
    }
    if (f.unit_id) where += "AND c.unit_id = ?2 ";
    if (f.search) where += "AND instr(c.search_text, ?3) > 0 ";
    if (f.portal) where += "AND c.has_portal_access = ?4 ";
    if (!f.archived) where += "AND c.deleted_at IS NULL ";

    std::string text;
    text.reserve(static_cast<std::size_t>(page.size) * 560 + 100);
    JsonWriter w(text);
    w.begin_object().key("data").begin_array();
    std::int64_t total = 0;
    if (f.unit_id || f.search) {
        total = write_matching_page(call, f, from + where, page, w);
    } else {
        std::string count_sql = "SELECT coalesce(sum(n), 0) FROM co_owner_tallies WHERE syndicate_id = ?1 ";
        if (f.portal) count_sql += "AND has_portal_access = ?4 ";
        if (!f.archived) count_sql += "AND archived = 0 ";
        const std::string page_sql = std::string(co_owner_columns) + "FROM (SELECT c.rowid AS row " + from + where +
                                     "ORDER BY c.sort_key, c.id LIMIT ?100 OFFSET ?101) p "
                                     "CROSS JOIN co_owners c ON c.rowid = p.row JOIN units u ON u.id = c.unit_id "
                                     "ORDER BY c.sort_key, c.id";
        total = read_page(call.db, count_sql, page_sql, page, [&](SQLite::Statement& q) { f.bind(q); },
                          [&](SQLite::Statement& q) { write_co_owner(w, q); });
    }
    w.end_array();
    write_pagination(w, page, total);
    w.end_object();
    return ToolResult::text(std::move(text));
}

ToolResult get_co_owner(const ToolCall& call) {
    const std::string& id = call.arguments().text("id");
    auto q = call.db.prepare(std::string(co_owner_select) + "WHERE c.id = ? AND c.syndicate_id = ?");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep()) throw record_not_found("co_owners", id, "/id");
    std::string text;
    JsonWriter w(text);
    write_co_owner(w, *q);
    return ToolResult::text(std::move(text));
}

json create_co_owner(const ToolCall& call) {
    std::optional<std::string> duplicate;
    const auto id = insert_co_owner(call.db, call.clock, call.caller.syndicate_id, call.arguments(), duplicate);
    json result = require_co_owner(call.db, call.caller.syndicate_id, id).record;
    if (duplicate) result["possibleDuplicateOf"] = *duplicate;
    return result;
}

json update_co_owner(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto current = require_active_co_owner(call.db, syndicate, a.text("id"));
    const json& before = current.record;

    const std::string unit_id = a.text_or("unitId", current.unit_id);
    if (a.has("unitId")) require_record_exists(call.db, syndicate, "units", unit_id, "/unitId", RecordState::active);
    const auto same_person_as = a.has("samePersonAs") ? a.optional_text("samePersonAs")
                                                      : text_or_null(before["samePersonAs"]);
    if (a.given("samePersonAs")) co_owners::check_same_person_as(call.db, syndicate, same_person_as, current.id, "/samePersonAs");
    const bool primary = a.flag("isPrimary", current.is_primary);
    const auto former_primary =
        primary && (a.has("isPrimary") || a.has("unitId"))
            ? other_primary(call.db, unit_id, current.id, a.has("isPrimary") ? "/isPrimary" : "/unitId",
                            a.flag("takeOverPrimary", false) && a.flag("isPrimary", false))
            : std::nullopt;

    const std::string first =
        a.has("firstName") ? a.nonblank("firstName") : before["firstName"].get<std::string>();
    const std::string last =
        a.has("lastName") ? a.nonblank("lastName") : before["lastName"].get<std::string>();
    const json email = a.has("email") ? nullable_trimmed(a.value("email")) : before["email"];
    const json phone = a.has("phone") ? nullable_trimmed(a.value("phone")) : before["phone"];
    const auto fraction = Fraction::from_percent(a.optional_number("fractionPercent").value_or(before["fractionPercent"].get<double>()));
    if (a.has("fractionPercent") || a.has("unitId"))
        check_co_owner_fraction(lot_share(call.db, syndicate, unit_id, current.id), fraction,
                                a.has("fractionPercent") ? "/fractionPercent" : "/unitId");

    const bool names_changed = a.has("firstName") || a.has("lastName") || a.has("email") || a.has("unitId");
    const auto duplicate =
        names_changed ? possible_duplicate(call.db, unit_id, first, last, email, current.id) : std::nullopt;
    const auto now = to_utc_iso(call.clock.now());
    demote_primary(call.db, former_primary, now);
    auto q = call.db.prepare(
        "UPDATE co_owners SET unit_id = ?, first_name = ?, last_name = ?, email = ?, phone = ?, fraction_units = ?, "
        "is_resident = ?, is_primary = ?, language = ?, has_portal_access = ?, search_text = ?, sort_key = ?, "
        "same_person_as = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, unit_id, first, last, text_or_null(email), text_or_null(phone), fraction.units(),
                    a.flag("isResident", before["isResident"].get<bool>()) ? 1 : 0, primary ? 1 : 0,
                    a.text_or("language", before["language"].get<std::string>()),
                    a.flag("hasPortalAccess", before["hasPortalAccess"].get<bool>()) ? 1 : 0, search_text(first, last, email),
                    sort_key(first, last), same_person_as, now, current.id);
    q->exec();
    json result = require_co_owner(call.db, syndicate, current.id).record;
    if (duplicate) result["possibleDuplicateOf"] = *duplicate;
    return result;
}

// Archives the record, then asks the modules built on the register what follows (the board: a
// director who is no longer a co-owner), in the same transaction.
json delete_co_owner(const ToolCall& call, const CoOwnerArchivedAnswers& answers) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto current = require_active_co_owner(call.db, syndicate, call.arguments().text("id"));
    const bool had_portal_access = current.record["hasPortalAccess"].get<bool>();
    auto q = call.db.prepare(
        "UPDATE co_owners SET deleted_at = ?1, updated_at = ?1, has_portal_access = 0 WHERE id = ?2");
    bind_parameters(*q, to_utc_iso(call.clock.now()), current.id);
    q->exec();
    json result = {{"coOwner", require_co_owner(call.db, syndicate, current.id).record},
                   {"portalAccessRevoked", had_portal_access}};
    for (const auto& answer : answers)
        if (auto more = answer(call, current.id); more.is_object()) result.update(more);
    return result;
}

json restore_co_owner(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto current = require_co_owner(call.db, syndicate, call.arguments().text("id"));
    if (!current.archived)
        throw DomainError(codes::not_archived, "Co-owner " + current.id + " is not archived.").at("/id");
    if (!active_unit_number(call.db, syndicate, current.unit_id))
        throw DomainError(codes::unit_not_found, "The co-owner's unit " + current.record["unitNumber"].get<std::string>() +
                                                     " has been deleted, so the co-owner cannot be restored.")
            .at("/id");
    if (current.is_primary) require_no_other_primary(call.db, current.unit_id, current.id, "/id");
    check_co_owner_fraction(lot_share(call.db, syndicate, current.unit_id, current.id),
                            Fraction::from_percent(current.record["fractionPercent"].get<double>()), "/id");
    auto q = call.db.prepare("UPDATE co_owners SET deleted_at = NULL, updated_at = ? WHERE id = ?");
    bind_parameters(*q, to_utc_iso(call.clock.now()), current.id);
    q->exec();
    json result = require_co_owner(call.db, syndicate, current.id).record;
    return result;
}

json bulk_create_co_owners(const ToolCall& call) {
    const auto& rows = call.arguments().value("coOwners");
    const auto& row_schema = call.registry.input_schema("create_co_owner");
    if (rows.size() > bulk_limit)
        throw DomainError(codes::bulk_limit_exceeded, "At most " + std::to_string(bulk_limit) +
                                                          " co-owners per call; this one has " +
                                                          std::to_string(rows.size()) + ".")
            .at("/coOwners")
            .with("limit", static_cast<std::int64_t>(bulk_limit))
            .with("count", static_cast<std::int64_t>(rows.size()));

    json created = json::array(), errors = json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        call.throw_if_cancelled();
        const std::string prefix = "/coOwners/" + std::to_string(i);
        try {
            call.registry.check_arguments("create_co_owner", rows[i]);
            // A row's checks all come before its one INSERT, which SQLite applies whole or not at
            // all: no savepoint per row.
            std::optional<std::string> duplicate;
            const auto id = insert_co_owner(call.db, call.clock, call.caller.syndicate_id, Arguments(rows[i], &row_schema, prefix), duplicate);
            created.push_back({{"index", i}, {"id", id}});
            if (duplicate) created.back()["possibleDuplicateOf"] = *duplicate;
        } catch (const DomainError& e) {
            std::string field = e.field();
            if (field.rfind(prefix, 0) != 0) field = prefix + field;
            errors.push_back({{"index", i}, {"code", e.code()}, {"field", field}, {"detail", e.detail()}});
        }
        if ((i + 1) % 50 == 0 || i + 1 == rows.size())
            call.report_progress(static_cast<double>(i + 1), static_cast<double>(rows.size()));
    }
    const auto created_count = created.size(), error_count = errors.size();
    return {{"created", std::move(created)},
            {"errors", std::move(errors)},
            {"createdCount", created_count},
            {"errorCount", error_count}};
}

}  // namespace

void register_co_owners_module(ToolTable& table) {
    table.bind("list_co_owners", list_co_owners);
    table.bind("get_co_owner", get_co_owner);
    table.bind("create_co_owner", create_co_owner);
    table.bind("update_co_owner", update_co_owner);
    table.bind("delete_co_owner", [answers = table.question<CoOwnerArchivedAnswers>(co_owner_archived_question)](
                                      const ToolCall& call) -> ToolResult { return delete_co_owner(call, *answers); });
    table.bind("restore_co_owner", restore_co_owner);
    table.bind("bulk_create_co_owners", bulk_create_co_owners);
}

}  // namespace syndic
