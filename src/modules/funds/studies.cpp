// record_fund_study (catalogue §4.6, arts. 1071, 1070.2; Reg. 991-2025): a contingency fund study by
// a member of a professional order the regulation names, independent of the syndicate (not a
// director, the manager or a co-owner), with its yearly recommendations; the next one is due 5
// years after it was received.
#include <SQLiteCpp/Statement.h>

#include <set>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/funds/tools.hpp"
#include "modules/governance/independence.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

const std::set<std::string> orders{"OIQ", "OAQ", "OTPQ", "OEAQ", "CPA"};

}  // namespace

json record_fund_study(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto received_on = *date_argument(a, "receivedOn");
    const auto preparer = a.object("preparer");
    const auto document_id = a.text("documentId");
    require_record_exists(call.db, syndicate, "documents", document_id, "/documentId");
    const auto name = preparer.nonblank("name");
    const auto order = preparer.text("order");
    if (!orders.count(order))
        throw DomainError("PREPARER_NOT_QUALIFIED", "A contingency fund study is prepared by a member of the Ordre des ingénieurs (OIQ), "
                                                    "des architectes (OAQ), des technologues professionnels (OTPQ), des évaluateurs agréés "
                                                    "(OEAQ) or a CPA; " + order + " is not one of them.")
            .at("/preparer/order")
            .with("order", order);
    if (!a.flag("independenceAttested", false))
        throw DomainError("PREPARER_NOT_INDEPENDENT", "The preparer must attest being independent of the syndicate (Reg. 991-2025): "
                                                      "independenceAttested true.")
            .at("/independenceAttested");
    if (const auto conflict = governance::preparer_conflict(call.db, syndicate, name, preparer.optional_nonblank("firm"), received_on))
        throw DomainError("PREPARER_NOT_INDEPENDENT", name + " is " + *conflict + ": the study's preparer must be independent of the "
                                                              "syndicate (Reg. 991-2025).")
            .at("/preparer/name")
            .with("conflict", *conflict);
    const auto recommendations = a.rows("recommendations");
    std::set<std::int64_t> years;
    for (const auto& r : recommendations)
        if (!years.insert(r.integer("fiscalYear")).second)
            throw invalid_argument(r.pointer("fiscalYear"), "repeats a year", "Each fiscal year is recommended once.");
    json warnings = json::array();
    // The logbook module's revisions (read, not written: the logbook is built on the funds, so it
    // cannot be asked through a header); established by its initial preparation.
    auto logbook = call.db.prepare(
        "SELECT 1 FROM logbook_revisions WHERE syndicate_id = ? AND kind = 'initial-preparation' AND performed_on <= ? LIMIT 1");
    bind_parameters(*logbook, syndicate, received_on);
    if (!logbook->executeStep())
        warnings.push_back("No maintenance logbook is recorded: the study is to rest on it (art. 1070.2, Reg. 991-2025); it is recorded all the same.");
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO fund_studies (id, syndicate_id, received_on, preparer_name, preparer_firm, preparer_order, preparer_member_number, "
        "independence_attested, based_on_logbook_revision_on, horizon_years, document_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, received_on, name, preparer.optional_nonblank("firm"), order, preparer.nonblank("memberNumber"),
                    date_argument(a, "basedOnLogbookRevisionOn"), a.integer_or("horizonYears", 25), document_id,
                    to_utc_iso(call.clock.now()));
    q->exec();
    auto r = call.db.prepare(
        "INSERT INTO fund_study_recommendations (study_id, fiscal_year, contribution_cents, projected_balance_cents) VALUES (?, ?, ?, ?)");
    for (const auto& row : recommendations) {
        r->reset();
        bind_parameters(*r, id, row.integer("fiscalYear"), row.integer("contributionCents"), row.optional_integer("projectedBalanceCents"));
        r->exec();
    }
    call.name_event("fund_study.recorded", "fund-study", id);
    auto out = fund_study_json(call.db, syndicate, id);
    out["warnings"] = warnings;
    return out;
}

json fund_study_json(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, received_on, preparer_name, preparer_firm, preparer_order, preparer_member_number, independence_attested, "
        "based_on_logbook_revision_on, horizon_years, document_id, created_at FROM fund_studies WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    q->executeStep();
    const auto received = q->getColumn(1).getString();
    json study = {{"id", q->getColumn(0).getString()},
                  {"receivedOn", received},
                  {"preparer", {{"name", q->getColumn(2).getString()}, {"firm", nullable_text(q->getColumn(3))},
                                {"order", q->getColumn(4).getString()}, {"memberNumber", q->getColumn(5).getString()}}},
                  {"independenceAttested", q->getColumn(6).getInt() != 0},
                  {"basedOnLogbookRevisionOn", nullable_text(q->getColumn(7))},
                  {"horizonYears", q->getColumn(8).getInt64()},
                  {"recommendations", json::array()},
                  {"documentId", q->getColumn(9).getString()},
                  {"nextDueOn", add_calendar_months(received, 60)},
                  {"createdAt", shown_time(q->getColumn(10))}};
    auto r = db.prepare(
        "SELECT fiscal_year, contribution_cents, projected_balance_cents FROM fund_study_recommendations WHERE study_id = ? ORDER BY fiscal_year");
    bind_parameters(*r, id);
    while (r->executeStep())
        study["recommendations"].push_back({{"fiscalYear", r->getColumn(0).getInt64()}, {"contributionCents", r->getColumn(1).getInt64()},
                                            {"projectedBalanceCents", nullable_integer(r->getColumn(2))}});
    return study;
}

}  // namespace syndic::funds
