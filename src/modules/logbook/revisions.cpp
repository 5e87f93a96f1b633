// The logbook's revisions (catalogue §4.7 record_logbook_revision; art. 1070.2, Reg. 991-2025): its
// initial preparation and its revisions by an independent member of the OIQ, OAQ, OTPQ or OEAQ, and
// the board's yearly update, which states why each required work not done was not done. A yearly
// update without a report is written by the server, with the 25-year plan (update_pdf.hpp).
#include <SQLiteCpp/Statement.h>

#include <set>
#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/governance/independence.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "modules/logbook/update_pdf.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::logbook {

using nlohmann::json;

namespace {

const std::set<std::string> orders{"OIQ", "OAQ", "OTPQ", "OEAQ"};

// The preparer of a preparation or professional revision: of an order the regulation names, and
// independent of the syndicate on the day (Reg. 991-2025).
void check_preparer(const ToolCall& call, const Arguments& a, const std::string& day) {
    if (!a.given("preparer"))
        throw invalid_argument("/preparer", "is required", "A preparation or professional revision names its preparer (name, order, memberNumber).");
    if (!a.given("documentId"))
        throw invalid_argument("/documentId", "is required", "A preparation or professional revision is filed with its report (documentId).");
    const auto preparer = a.object("preparer");
    const auto order = preparer.text_or("order", "");
    if (!orders.count(order))
        throw DomainError("PREPARER_NOT_QUALIFIED", "The logbook is prepared and revised by a member of the Ordre des ingénieurs (OIQ), des "
                                                    "architectes (OAQ), des technologues professionnels (OTPQ) or des évaluateurs agréés (OEAQ)" +
                                                        (order.empty() ? std::string(": give preparer.order.") : "; " + order + " is not one of them."))
            .at("/preparer/order")
            .with("order", order);
    if (!a.flag("independenceAttested", false))
        throw DomainError("PREPARER_NOT_INDEPENDENT", "The preparer must attest being independent of the syndicate (Reg. 991-2025): independenceAttested true.")
            .at("/independenceAttested");
    const auto name = preparer.nonblank("name");
    if (const auto conflict = governance::preparer_conflict(call.db, call.caller.syndicate_id, name, preparer.optional_nonblank("firm"), day))
        throw DomainError("PREPARER_NOT_INDEPENDENT", name + " is " + *conflict + ": the logbook's preparer must be independent of the syndicate "
                                                              "(Reg. 991-2025).")
            .at("/preparer/name")
            .with("conflict", *conflict);
}

// The components a yearly update on `day` must give a reason for: an active schedule overdue, or
// a replacement past its year.
std::set<std::string> required_reasons(Database& db, const std::string& syndicate_id, const std::string& day) {
    std::set<std::string> out;
    auto q = db.prepare(
        "SELECT s.component_id FROM maintenance_schedules s JOIN logbook_components r ON r.id = s.component_id WHERE s.syndicate_id = ?1 "
        "AND s.active = 1 AND s.next_due_on < ?2 AND r.deleted_at IS NULL UNION SELECT r.id FROM logbook_components r WHERE r.syndicate_id = ?1 "
        "AND r.deleted_at IS NULL AND " SYNDIC_REPLACEMENT_YEAR " < CAST(substr(?2, 1, 4) AS INTEGER)");
    bind_parameters(*q, syndicate_id, day);
    while (q->executeStep()) out.insert(q->getColumn(0).getString());
    return out;
}

std::optional<std::string> established_on(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT min(performed_on) FROM logbook_revisions WHERE syndicate_id = ? AND kind = 'initial-preparation'");
    bind_parameters(*q, syndicate_id);
    q->executeStep();
    return optional_text(*q, 0);
}

// The yearly update written as a PDF and filed among the register's documents; returns its id.
std::string file_update(const ToolCall& call, const json& revision, const std::string& language, const std::string& now,
                        const OpenProjects& open) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto status = logbook_status(call);
    const auto plan = major_works_plan(call, this_year(call), 25, setting_number(call.db, syndicate, "constructionInflationPercent"), open);
    json components = json::array();
    auto q = call.db.prepare(
        "SELECT r.id, r.name, r.condition, r.installed_year, r.expected_life_years, " SYNDIC_REPLACEMENT_YEAR ", r.replacement_cost_cents "
        "FROM logbook_components r WHERE r.syndicate_id = ? AND r.deleted_at IS NULL ORDER BY " SYNDIC_REPLACEMENT_YEAR " IS NULL, "
        SYNDIC_REPLACEMENT_YEAR ", r.name, r.id");
    bind_parameters(*q, syndicate);
    while (q->executeStep())
        components.push_back({{"id", q->getColumn(0).getString()}, {"name", q->getColumn(1).getString()}, {"condition", q->getColumn(2).getString()},
                              {"installedYear", nullable_integer(q->getColumn(3))}, {"expectedLifeYears", nullable_integer(q->getColumn(4))},
                              {"replacementYear", nullable_integer(q->getColumn(5))}, {"replacementCostCents", nullable_integer(q->getColumn(6))}});
    const auto pdf = render_pdf(update_document(status, plan, revision, components, syndicate_name(call.db, syndicate), language));
    const bool en = language == "en";
    const auto on = revision["performedOn"].get<std::string>();
    return documents::file_generated_pdf(call.db, syndicate,
                                         {"logbook", (en ? "Maintenance logbook — yearly update " : "Carnet d'entretien — mise à jour annuelle ") + on,
                                          "carnet-entretien-" + on, "board", language, call.caller.api_key_id, now, std::string("maintenance-logbook")},
                                         pdf.bytes, pdf.pages);
}

}  // namespace

json record_logbook_revision(const ToolCall& call, const OpenProjects& open) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    const auto works = a.rows("worksNotDone");
    std::set<std::string> explained;
    for (const auto& w : works) {
        require_record_exists(call.db, syndicate, "logbook_components", w.text("componentId"), w.pointer("componentId"));
        explained.insert(w.text("componentId"));
    }
    const auto kind = a.text("kind");
    const auto day = *date_argument(a, "performedOn");
    if (day > today(call))
        throw DomainError(codes::invalid_date_range, "A revision is recorded once made: " + day + " is after today.").at("/performedOn");
    const auto established = established_on(call.db, syndicate);
    if (kind == "initial-preparation" && established)
        throw invalid_argument("/kind", "the logbook is established", "The logbook was prepared on " + *established +
                                                                          "; a professional's later review is a professional-revision.");
    if (kind != "initial-preparation" && (!established || *established > day))
        throw DomainError("LOGBOOK_NOT_ESTABLISHED", "The logbook's initial preparation by a professional is not recorded" +
                                                         (established ? " before " + day + " (it was on " + *established + ")" : std::string()) +
                                                         ": record it first (kind initial-preparation).")
            .at("/kind");
    if (kind != "annual-update") check_preparer(call, a, day);
    if (kind == "annual-update") {
        std::vector<std::string> missing;
        for (const auto& id : required_reasons(call.db, syndicate, day))
            if (!explained.count(id)) missing.push_back(id);
        std::string ids;  // a refusal's figures are scalars: the ids as one text, comma-separated
        for (const auto& m : missing) ids += (ids.empty() ? "" : ",") + m;
        if (!missing.empty())
            throw DomainError("LOGBOOK_REASONS_MISSING", std::to_string(missing.size()) + " component(s) have maintenance overdue or a replacement past "
                                                         "its year: the yearly update states why each was not done (worksNotDone, one reason each).")
                .at("/worksNotDone")
                .with("componentIds", ids);
    }
    json listed = json::array();
    for (const auto& w : works) listed.push_back({{"componentId", w.text("componentId")}, {"reason", w.nonblank("reason")}});
    static const json none = json::object();
    const auto preparer = a.given("preparer") ? a.object("preparer") : Arguments(none, nullptr, "/preparer");
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO logbook_revisions (id, syndicate_id, kind, performed_on, preparer_name, preparer_firm, preparer_order, preparer_member_number, "
        "independence_attested, works_not_done, document_id, notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, kind, day, preparer.optional_nonblank("name"), preparer.optional_nonblank("firm"),
                    preparer.optional_text("order"), preparer.optional_nonblank("memberNumber"), a.flag("independenceAttested", false) ? 1 : 0,
                    listed.dump(), a.optional_text("documentId"), a.optional_nonblank("notes"), now);
    q->exec();
    auto read = [&] {
        auto r = call.db.prepare(std::string("SELECT ") + revision_columns + " FROM logbook_revisions WHERE id = ?");
        bind_parameters(*r, id);
        r->executeStep();
        return revision_json(*r);
    };
    if (kind == "annual-update" && !a.given("documentId")) {
        const auto language = a.optional_text("language").value_or(get_setting(call.db, syndicate, "defaultLanguage").get<std::string>());
        const auto document = file_update(call, read(), language, now, open);
        auto u = call.db.prepare("UPDATE logbook_revisions SET document_id = ? WHERE id = ?");
        bind_parameters(*u, document, id);
        u->exec();
    }
    const auto document = read()["documentId"];
    if (document.is_string()) documents::attach(call.db, syndicate, document.get<std::string>(), "logbook-revision", id, now);
    call.name_event("logbook.revised", "logbook-revision", id);
    auto out = read();
    out["logbook"] = logbook_status(call);
    return out;
}

}  // namespace syndic::logbook
