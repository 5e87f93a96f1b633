// record_co_owner_insurance_certificate and list_co_owner_insurance_certificates (catalogue §3.3):
// each co-owner's proof of civil liability insurance, checked against the minimum of art. 1064.1
// and r. 4.1 s. 1 ($1,000,000, or $2,000,000 from 13 fractions used as dwellings or enterprises);
// a lower amount is kept and flagged (the syndicate follows up), a newer certificate supersedes the
// co-owner's older one, and the units with no valid certificate are listed.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/insurance/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::insurance {

using nlohmann::json;

namespace {

// $1M under 13 fractions used as dwellings or enterprises (apartments, commercial units), else $2M.
std::int64_t required_cents(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT count(*) FROM units WHERE syndicate_id = ? AND deleted_at IS NULL AND type IN ('apartment', 'commercial')");
    bind_parameters(*q, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getInt64() < 13 ? 100000000 : 200000000;
}

// valid, expiring (ends within 30 days), expired, or insufficient (below the minimum, in force).
#define CERTIFICATE_STATUS                                                                                                       \
    "CASE WHEN c.end_date <= ?2 THEN 'expired' WHEN c.liability_cents < ?3 THEN 'insufficient' WHEN c.end_date <= date(?2, '+30 days') " \
    "THEN 'expiring' ELSE 'valid' END"

json certificate_json(SQLite::Statement& q, std::int64_t required) {
    return {{"id", q.getColumn(0).getString()},           {"coOwnerId", q.getColumn(1).getString()},
            {"coOwnerName", q.getColumn(2).getString()},  {"unitId", q.getColumn(3).getString()},
            {"unitNumber", q.getColumn(4).getString()},   {"insurer", q.getColumn(5).getString()},
            {"policyNumber", q.getColumn(6).getString()}, {"liabilityCents", q.getColumn(7).getInt64()},
            {"startDate", q.getColumn(8).getString()},    {"endDate", q.getColumn(9).getString()},
            {"documentId", nullable_text(q.getColumn(10))}, {"requiredCents", required},
            {"compliant", q.getColumn(7).getInt64() >= required}, {"status", q.getColumn(11).getString()},
            {"createdAt", shown_time(q.getColumn(12))}};
}

const char* certificate_columns =
    "SELECT c.id, c.co_owner_id, o.first_name || ' ' || o.last_name, c.unit_id, u.number, c.insurer, c.policy_number, c.liability_cents, "
    "c.start_date, c.end_date, c.document_id, " CERTIFICATE_STATUS ", c.created_at FROM co_owner_insurance_certificates c "
    "JOIN co_owners o ON o.id = c.co_owner_id JOIN units u ON u.id = c.unit_id ";

}  // namespace

json record_co_owner_insurance_certificate(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto co_owner = a.text("coOwnerId");
    require_record_exists(call.db, syndicate, "co_owners", co_owner, "/coOwnerId", RecordState::active);
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    const auto start = *date_argument(a, "startDate"), end = *date_argument(a, "endDate");
    if (end <= start)
        throw DomainError(codes::invalid_date_range, "The certificate ends on " + end + ", not after it starts on " + start + ".")
            .at("/endDate")
            .with("startDate", start)
            .with("endDate", end);
    auto unit = call.db.prepare("SELECT unit_id FROM co_owners WHERE id = ?");
    bind_parameters(*unit, co_owner);
    unit->executeStep();
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO co_owner_insurance_certificates (id, syndicate_id, co_owner_id, unit_id, insurer, policy_number, liability_cents, start_date, "
        "end_date, document_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, co_owner, unit->getColumn(0).getString(), a.nonblank("insurer"), a.nonblank("policyNumber"),
                    a.integer("liabilityCents"), start, end, a.optional_text("documentId"), now);
    q->exec();
    auto older = call.db.prepare(
        "UPDATE co_owner_insurance_certificates SET superseded_by = ? WHERE syndicate_id = ? AND co_owner_id = ? AND id <> ? AND superseded_by IS NULL");
    bind_parameters(*older, id, syndicate, co_owner, id);
    older->exec();
    if (a.given("documentId")) documents::attach(call.db, syndicate, a.text("documentId"), "co-owner-insurance", id, now);
    call.name_event("co_owner_insurance.recorded", "co-owner-insurance", id);
    const auto required = required_cents(call.db, syndicate);
    auto r = call.db.prepare(std::string(certificate_columns) + "WHERE c.id = ?1");
    bind_parameters(*r, id, today(call), required);
    r->executeStep();
    auto out = certificate_json(*r, required);
    out["warnings"] = json::array();
    if (!out["compliant"].get<bool>())
        out["warnings"].push_back("The liability insurance is below the " + std::to_string(required / 100) +
                                  " $ minimum (art. 1064.1, r. 4.1 s. 1): recorded, to be followed up with the co-owner.");
    return out;
}

json list_co_owner_insurance_certificates(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto page = page_request(a);
    const auto required = required_cents(call.db, syndicate);
    const auto status = a.optional_text("status");
    const auto unit = a.optional_text("unitId");
    // ?1 syndicate, ?2 today, ?3 required, ?4 status, ?5 unit.
    const std::string where = "WHERE c.syndicate_id = ?1 AND c.superseded_by IS NULL AND o.deleted_at IS NULL AND (?4 IS NULL OR " CERTIFICATE_STATUS
                              " = ?4) AND (?5 IS NULL OR c.unit_id = ?5)";
    json data = json::array();
    const auto total = read_page(
        call.db, "SELECT count(*) FROM co_owner_insurance_certificates c JOIN co_owners o ON o.id = c.co_owner_id " + where,
        std::string(certificate_columns) + where + " ORDER BY u.number, o.sort_key LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) { bind_parameters(q, syndicate, today(call), required, status == "missing" ? std::optional<std::string>("none") : status, unit); },
        [&](SQLite::Statement& q) { data.push_back(certificate_json(q, required)); });
    // The dwellings and enterprises whose active co-owners hold no certificate in force.
    json missing = json::array();
    if (!status || *status == "missing") {
        auto m = call.db.prepare(
            "SELECT u.id, u.number FROM units u WHERE u.syndicate_id = ?1 AND u.deleted_at IS NULL AND u.type IN ('apartment', 'commercial') "
            "AND (?2 IS NULL OR u.id = ?2) AND NOT EXISTS (SELECT 1 FROM co_owner_insurance_certificates c JOIN co_owners o ON o.id = c.co_owner_id "
            "WHERE c.unit_id = u.id AND c.superseded_by IS NULL AND o.deleted_at IS NULL AND c.start_date <= ?3 AND c.end_date > ?3) ORDER BY u.number");
        bind_parameters(*m, syndicate, unit, today(call));
        while (m->executeStep()) missing.push_back({{"unitId", m->getColumn(0).getString()}, {"unitNumber", m->getColumn(1).getString()}});
    }
    auto out = page_envelope(std::move(data), page, total);
    out["requiredCents"] = required;
    out["missing"] = std::move(missing);
    return out;
}

}  // namespace syndic::insurance

#undef CERTIFICATE_STATUS
