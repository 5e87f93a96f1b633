// Condition assessments (catalogue §4.7 record_inspection): each finding sets its component's
// condition and, when it says so, its replacement year and cost; the component keeps the day it was
// last inspected. Inspections of the last 5 years are reported in the attestation to a buyer [S12].
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::logbook {

using nlohmann::json;

namespace {

json inspection_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, performed_on, inspector_name, inspector_firm, inspector_order, inspector_member_number, scope, document_id, created_at "
        "FROM inspections WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    json out = {{"id", q->getColumn(0).getString()},
                {"performedOn", q->getColumn(1).getString()},
                {"inspector", {{"name", q->getColumn(2).getString()}, {"firm", nullable_text(q->getColumn(3))},
                               {"order", nullable_text(q->getColumn(4))}, {"memberNumber", nullable_text(q->getColumn(5))}}},
                {"scope", q->getColumn(6).getString()},
                {"findings", json::array()},
                {"documentId", nullable_text(q->getColumn(7))},
                {"createdAt", shown_time(q->getColumn(8))}};
    auto f = db.prepare(
        "SELECT f.component_id, c.name, f.condition, f.remaining_life_years, f.recommendation, f.estimated_cost_cents, f.recommended_year "
        "FROM inspection_findings f JOIN logbook_components c ON c.id = f.component_id WHERE f.inspection_id = ? ORDER BY f.line_no");
    bind_parameters(*f, id);
    while (f->executeStep())
        out["findings"].push_back({{"componentId", f->getColumn(0).getString()}, {"componentName", f->getColumn(1).getString()},
                                   {"condition", f->getColumn(2).getString()}, {"remainingLifeYears", nullable_integer(f->getColumn(3))},
                                   {"recommendation", nullable_text(f->getColumn(4))}, {"estimatedCostCents", nullable_integer(f->getColumn(5))},
                                   {"recommendedYear", nullable_integer(f->getColumn(6))}});
    return out;
}

}  // namespace

json record_inspection(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto findings = a.rows("findings");
    for (const auto& f : findings) require_component(call, f.text("componentId"), f.pointer("componentId"));
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    const auto performed_on = *date_argument(a, "performedOn");
    if (performed_on > today(call))
        throw DomainError(codes::invalid_date_range, "An inspection is recorded once made: " + performed_on + " is after today.").at("/performedOn");
    const int year = std::stoi(performed_on.substr(0, 4));
    for (std::size_t i = 0; i < findings.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (findings[i].text("componentId") == findings[j].text("componentId"))
                throw invalid_argument(findings[i].pointer("componentId"), "repeats a component",
                                       "Each component has one finding per inspection (items " + std::to_string(j) + " and " + std::to_string(i) + ").");
    const auto inspector = a.object("inspector");
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO inspections (id, syndicate_id, performed_on, inspector_name, inspector_firm, inspector_order, inspector_member_number, "
        "scope, document_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, performed_on, inspector.nonblank("name"), inspector.optional_nonblank("firm"),
                    inspector.optional_nonblank("order"), inspector.optional_nonblank("memberNumber"), a.text("scope"),
                    a.optional_text("documentId"), now);
    q->exec();
    int line = 0;
    for (const auto& f : findings) {
        const auto component_id = f.text("componentId");
        const auto remaining = f.optional_integer("remainingLifeYears");
        const auto recommended = f.optional_integer("recommendedYear");
        auto r = call.db.prepare(
            "INSERT INTO inspection_findings (inspection_id, line_no, component_id, condition, remaining_life_years, recommendation, "
            "estimated_cost_cents, recommended_year) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*r, id, ++line, component_id, f.text("condition"), remaining, f.optional_nonblank("recommendation"),
                        f.optional_integer("estimatedCostCents"), recommended);
        r->exec();
        // The latest inspection speaks for the component; an older one entered late changes nothing.
        const auto replacement_year = recommended ? recommended : remaining ? std::optional<std::int64_t>(year + *remaining) : std::nullopt;
        auto u = call.db.prepare(
            "UPDATE logbook_components SET condition = ?1, replacement_year = CASE WHEN ?2 IS NULL THEN replacement_year ELSE ?2 END, "
            "replacement_cost_cents = coalesce(?3, replacement_cost_cents), last_inspected_on = ?4, updated_at = ?5 "
            "WHERE id = ?6 AND (last_inspected_on IS NULL OR last_inspected_on <= ?4)");
        bind_parameters(*u, f.text("condition"), replacement_year, f.optional_integer("estimatedCostCents"), performed_on, now, component_id);
        u->exec();
    }
    if (a.given("documentId")) documents::attach(call.db, syndicate, a.text("documentId"), "inspection", id, now);
    return inspection_json(call.db, id);
}

}  // namespace syndic::logbook
