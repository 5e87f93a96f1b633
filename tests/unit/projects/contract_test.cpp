// A project's contract (catalogue §4.8): contractors' quotes with what would stop their award; the
// award by the board to a quote still valid, within the budget, after enough quotes where the
// declaration asks for them, to an insured contractor holding an RBQ licence (Building Act), no
// director with a declared interest voting (art. 324); the tasks; change orders, approved within
// the budget by any director, above it by the board (by the co-owners' absolute majority for an
// improvement, art. 1097); and progress, the first update starting the work. The fixture's clock
// makes today 2026-11-21.
#include "projects/projects_fixture.hpp"

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace projects_contract_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

json sources(const std::string& fund, std::int64_t cents) {
    return json::array({json{{"fund", fund}, {"amountCents", cents}}});
}

json award_args(const json& p, const json& q, const std::string& resolution) {
    return {{"projectId", p["id"]}, {"quoteId", q["id"]}, {"resolutionId", resolution}};
}

// The status of each quote of the project, by id.
std::string quote_status(ProjectsFixture& fx, const json& p, const json& q) {
    const auto got = fx.call("get_project", {{"id", p["id"]}});
    for (const auto& x : got["quotes"])
        if (x["id"] == q["id"]) return x["status"];
    return "";
}

}  // namespace

TEST_SUITE("projects-contract") {

TEST_CASE("a quote is a registered contractor's, with what would stop its award") {
    ProjectsFixture fx;
    const auto p = fx.project();
    const auto doc = fx.document();
    const json base = {{"projectId", p["id"]}, {"contractorId", fx.roofer["id"]}, {"amountCents", 4000000}, {"receivedOn", "2026-11-01"},
                       {"scope", "Membrane"}};
    auto with = [&](json extra) {
        auto a = base;
        a.update(extra);
        return a;
    };
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "add_project_quote", with({{"projectId", ghost}}));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "add_project_quote", with({{"contractorId", ghost}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "add_project_quote", with({{"documentId", ghost}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "add_project_quote", with({{"receivedOn", "2026-11-22"}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "add_project_quote", with({{"validUntil", "2026-10-31"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_project_quote", with({{"amountCents", -1}}));
    const auto q = fx.quote(p, {{"documentId", doc}});
    CHECK(q["projectId"] == p["id"]);
    CHECK(q["contractorName"] == "Couvertures Boréal inc.");
    CHECK(q["amountCents"] == 4000000);
    CHECK(q["validUntil"] == "2027-01-31");
    CHECK(q["documentId"] == doc);
    CHECK(q["status"] == "received");
    CHECK(q["contractorWarnings"].empty());
    // The logbook's roofer has no insurance known; this one neither a licence nor insurance in force.
    const auto unknown = fx.quote(p, {{"contractorId", fx.contractor["id"]}, {"amountCents", 4200000}});
    CHECK(unknown["contractorWarnings"].size() == 1);
    const auto bare = fx.insured("Rénovations Sans Permis", {{"rbqLicence", nullptr}, {"insuranceExpiry", "2026-06-30"}});
    CHECK(fx.quote(p, {{"contractorId", bare["id"]}})["contractorWarnings"].size() == 2);
    // A study is no construction work: no licence to warn of.
    const auto study = fx.project({{"title", "Étude de l'enveloppe"}, {"category", "study"}, {"componentIds", json::array()},
                                   {"budgetCents", 800000}, {"fundingSources", sources("operating", 800000)}});
    const auto engineer = fx.insured("Roy Ingénierie", {{"rbqLicence", nullptr}, {"trade", "Ingénieur en structure"}});
    CHECK(fx.quote(study, {{"contractorId", engineer["id"]}, {"amountCents", 700000}})["contractorWarnings"].empty());
    // An archived contractor gives no quote.
    const auto gone = fx.insured("Toitures Disparues");
    fx.call("delete_contractor", {{"id", gone["id"]}});
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "add_project_quote", with({{"contractorId", gone["id"]}}));
    // Quotes come while the project is proposed or approved; not once cancelled.
    fx.approve(p);
    CHECK(fx.quote(p, {{"amountCents", 3900000}})["status"] == "received");
    CHECK(fx.call("get_project", {{"id", p["id"]}})["quotes"].size() == 4);
    fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_project_quote", base);
}

TEST_CASE("the award: an approved project, a quote valid today and within the budget, the board's passed resolution; the others declined") {
    ProjectsFixture fx;
    const auto p = fx.project();
    const auto other = fx.project({{"title", "Drains"}});
    // Valid until today and exactly the budget: both still allowed.
    const auto q = fx.quote(p, {{"amountCents", 5000000}, {"validUntil", "2026-11-21"}});
    const auto expired = fx.quote(p, {{"receivedOn", "2026-10-01"}, {"validUntil", "2026-11-20"}, {"amountCents", 3000000}});
    const auto expired_over = fx.quote(p, {{"receivedOn", "2026-10-01"}, {"validUntil", "2026-11-20"}, {"amountCents", 6000000}});
    const auto over = fx.quote(p, {{"amountCents", 5000001}});
    const auto uninsured_over = fx.quote(p, {{"contractorId", fx.contractor["id"]}, {"amountCents", 5000001}});
    const auto elsewhere = fx.quote(other);
    const auto board = fx.board();
    const auto general = fx.resolution_id("simple", "passed", "aga");
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    // Not approved yet.
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "award_project_contract", award_args(p, q, board));
    fx.approve(p);
    // Every record named exists, on this project.
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "award_project_contract", (json{{"projectId", ghost}, {"quoteId", q["id"]}, {"resolutionId", board}}));
    CHECK_REFUSED(fx, "QUOTE_NOT_FOUND", "award_project_contract", (json{{"projectId", p["id"]}, {"quoteId", ghost}, {"resolutionId", board}}));
    CHECK_REFUSED(fx, "QUOTE_NOT_FOUND", "award_project_contract", award_args(p, elsewhere, board));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "award_project_contract", award_args(p, q, ghost));
    auto abstaining = award_args(p, q, board);
    abstaining["abstainingDirectorIds"] = json::array({ghost});
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "award_project_contract", abstaining);
    // The quote's validity on the award date, then the budget, in that order.
    const auto late = fx.error("award_project_contract", award_args(p, expired, board));
    CHECK(late.code() == "QUOTE_EXPIRED");
    CHECK(text_of(late, "validUntil") == "2026-11-20");
    CHECK_REFUSED(fx, "QUOTE_EXPIRED", "award_project_contract", award_args(p, expired, board));
    CHECK_REFUSED(fx, "QUOTE_EXPIRED", "award_project_contract", award_args(p, expired_over, board));
    const auto dear = fx.error("award_project_contract", award_args(p, over, board));
    CHECK(dear.code() == "BUDGET_EXCEEDED");
    CHECK(figure(dear, "amountCents") == 5000001);
    CHECK(figure(dear, "budgetCents") == 5000000);
    CHECK_REFUSED(fx, "BUDGET_EXCEEDED", "award_project_contract", award_args(p, over, board));
    CHECK_REFUSED(fx, "BUDGET_EXCEEDED", "award_project_contract", award_args(p, uninsured_over, board));
    // The decision: the board's, passed.
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "award_project_contract", award_args(p, q, rejected));
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "award_project_contract", award_args(p, q, general));
    const auto awarded = fx.call("award_project_contract", award_args(p, q, board));
    CHECK(awarded["status"] == "approved");
    CHECK(awarded["contractorId"] == fx.roofer["id"]);
    CHECK(awarded["quoteId"] == q["id"]);
    CHECK(awarded["contractAmountCents"] == 5000000);
    CHECK(fx.has_event(p["id"], "project.contract_awarded"));
    CHECK(quote_status(fx, p, q) == "awarded");
    for (const auto& declined : {expired, expired_over, over, uninsured_over}) CHECK(quote_status(fx, p, declined) == "declined");
    CHECK(quote_status(fx, other, elsewhere) == "received");  // another project's quotes stay
    // Awarded once.
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "award_project_contract", award_args(p, q, board));
    const auto budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["contractAmountCents"] == 5000000);
    CHECK(budget["committedCents"] == 5000000);
}

TEST_CASE("above the declaration's threshold, its number of quotes is needed") {
    ProjectsFixture fx;
    fx.call("update_declaration", {{"minQuotes", 3}, {"quoteThresholdCents", 1000000}});
    const auto p = fx.approved_project();
    const auto at_threshold = fx.quote(p, {{"amountCents", 1000000}});
    const auto below = fx.quote(p, {{"contractorId", fx.insured("Toitures Rive-Sud")["id"]}, {"amountCents", 999999}});
    const auto board = fx.board();
    const auto few = fx.error("award_project_contract", award_args(p, at_threshold, board));
    CHECK(few.code() == "NOT_ENOUGH_QUOTES");
    CHECK(figure(few, "minQuotes") == 3);
    CHECK(figure(few, "quotes") == 2);
    CHECK_REFUSED(fx, "NOT_ENOUGH_QUOTES", "award_project_contract", award_args(p, at_threshold, board));
    // Below the threshold the by-law asks nothing.
    CHECK(fx.call("award_project_contract", award_args(p, below, board))["contractAmountCents"] == 999999);
    // Three quotes are enough.
    const auto drains = fx.approved_project({{"title", "Drains"}});
    const auto first = fx.quote(drains);
    fx.quote(drains, {{"amountCents", 4500000}});
    fx.quote(drains, {{"contractorId", fx.contractor["id"]}, {"amountCents", 4400000}});
    CHECK(fx.call("award_project_contract", award_args(drains, first, fx.board()))["contractorId"] == fx.roofer["id"]);
}

TEST_CASE("the contractor's liability insurance is in force today, and it holds an RBQ licence but for a study") {
    ProjectsFixture fx;
    const auto p = fx.approved_project();
    const auto ends_today = fx.insured("Toitures Échéance", {{"insuranceExpiry", "2026-11-21"}});
    const auto ends_tomorrow = fx.insured("Toitures Demain", {{"insuranceExpiry", "2026-11-22"}});
    const auto unlicensed = fx.insured("Rénovations Sans Permis", {{"rbqLicence", nullptr}});
    const auto nothing = fx.insured("Bricoleurs Associés", {{"rbqLicence", nullptr}, {"insuranceExpiry", nullptr}});
    const auto unknown_q = fx.quote(p, {{"contractorId", fx.contractor["id"]}});
    const auto today_q = fx.quote(p, {{"contractorId", ends_today["id"]}});
    const auto tomorrow_q = fx.quote(p, {{"contractorId", ends_tomorrow["id"]}});
    const auto unlicensed_q = fx.quote(p, {{"contractorId", unlicensed["id"]}});
    const auto nothing_q = fx.quote(p, {{"contractorId", nothing["id"]}});
    const auto board = fx.board();
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    CHECK_REFUSED(fx, "CONTRACTOR_INSURANCE_EXPIRED", "award_project_contract", award_args(p, unknown_q, board));
    const auto lapsed = fx.error("award_project_contract", award_args(p, today_q, board));
    CHECK(lapsed.code() == "CONTRACTOR_INSURANCE_EXPIRED");
    CHECK(text_of(lapsed, "insuranceExpiry") == "2026-11-21");
    CHECK_REFUSED(fx, "CONTRACTOR_INSURANCE_EXPIRED", "award_project_contract", award_args(p, today_q, board));
    CHECK_REFUSED(fx, "CONTRACTOR_INSURANCE_EXPIRED", "award_project_contract", award_args(p, nothing_q, board));  // insurance first
    CHECK_REFUSED(fx, "CONTRACTOR_LICENCE_MISSING", "award_project_contract", award_args(p, unlicensed_q, board));
    // Insured until tomorrow passes both: only the rejected resolution stops it.
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "award_project_contract", award_args(p, tomorrow_q, rejected));
    // A study needs no licence.
    const auto study = fx.approved_project({{"title", "Étude de l'enveloppe"}, {"category", "study"}, {"componentIds", json::array()},
                                            {"budgetCents", 800000}, {"fundingSources", sources("operating", 800000)}});
    const auto study_q = fx.quote(study, {{"contractorId", unlicensed["id"]}, {"amountCents", 700000}});
    const auto awarded = fx.call("award_project_contract", award_args(study, study_q, fx.board()));
    CHECK(awarded["contractorId"] == unlicensed["id"]);
}

TEST_CASE("a director who declared an interest in the contractor abstains (art. 324)") {
    ProjectsFixture fx;
    const auto p = fx.approved_project();
    const auto q = fx.quote(p);
    const auto board = fx.board();
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    // An interest no longer active stops nothing: only the rejected resolution does.
    fx.call("record_interest_disclosure", {{"directorId", fx.director["id"]}, {"subjectType", "contractor"}, {"subjectId", fx.roofer["id"]},
                                           {"nature", "Ancien associé"}, {"disclosedOn", "2026-02-01"}, {"active", false}});
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "award_project_contract", award_args(p, q, rejected));
    // Another contractor's interest is not this one's.
    const auto other = fx.insured("Toitures Rive-Sud");
    fx.call("record_interest_disclosure", {{"directorId", fx.director["id"]}, {"subjectType", "contractor"}, {"subjectId", other["id"]},
                                           {"nature", "Actionnaire"}, {"disclosedOn", "2026-11-01"}});
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "award_project_contract", award_args(p, q, rejected));
    fx.call("record_interest_disclosure", {{"directorId", fx.director["id"]}, {"subjectType", "contractor"}, {"subjectId", fx.roofer["id"]},
                                           {"nature", "Beau-frère du propriétaire"}, {"disclosedOn", "2026-11-01"}});
    CHECK_REFUSED(fx, "CONFLICT_OF_INTEREST", "award_project_contract", award_args(p, q, board));
    CHECK_REFUSED(fx, "CONFLICT_OF_INTEREST", "award_project_contract", award_args(p, q, rejected));  // before the resolution
    auto abstaining = award_args(p, q, board);
    abstaining["abstainingDirectorIds"] = json::array({fx.director["id"]});
    const auto awarded = fx.call("award_project_contract", abstaining);
    CHECK(awarded["contractorId"] == fx.roofer["id"]);
}

TEST_CASE("tasks: assigned to a director in office or a contractor; done sets its day; none on a cancelled project") {
    ProjectsFixture fx;
    const auto p = fx.project();
    const auto other = fx.project({{"title", "Drains"}});
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "add_project_task", (json{{"projectId", ghost}, {"title", "Permis"}}));
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "add_project_task", (json{{"projectId", p["id"]}, {"title", "Permis"}, {"assigneeDirectorId", ghost}}));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "add_project_task", (json{{"projectId", p["id"]}, {"title", "Permis"}, {"contractorId", ghost}}));
    const auto t = fx.call("add_project_task", {{"projectId", p["id"]}, {"title", "Obtenir le permis de la Ville"}, {"dueOn", "2026-12-01"},
                                                {"assigneeDirectorId", fx.director["id"]}, {"contractorId", fx.roofer["id"]}});
    CHECK(t["projectId"] == p["id"]);
    CHECK(t["status"] == "todo");
    CHECK(t["doneOn"].is_null());
    CHECK(t["dueOn"] == "2026-12-01");
    CHECK(t["assigneeDirectorId"] == fx.director["id"]);
    CHECK(t["contractorId"] == fx.roofer["id"]);
    CHECK((fx.has_event(p["id"], "project.task_changed") || fx.has_event(t["id"], "project.task_changed")));
    const auto theirs = fx.call("add_project_task", {{"projectId", other["id"]}, {"title", "Avis aux résidents"}});
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "update_project_task", (json{{"projectId", ghost}, {"taskId", t["id"]}, {"status", "doing"}}));
    CHECK_REFUSED(fx, "TASK_NOT_FOUND", "update_project_task", (json{{"projectId", p["id"]}, {"taskId", ghost}, {"status", "doing"}}));
    CHECK_REFUSED(fx, "TASK_NOT_FOUND", "update_project_task", (json{{"projectId", p["id"]}, {"taskId", theirs["id"]}, {"status", "doing"}}));
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "update_project_task", (json{{"projectId", p["id"]}, {"taskId", t["id"]}, {"assigneeDirectorId", ghost}}));
    auto u = fx.call("update_project_task", {{"projectId", p["id"]}, {"taskId", t["id"]}, {"status", "done"}});
    CHECK(u["status"] == "done");
    CHECK(u["doneOn"] == "2026-11-21");
    u = fx.call("update_project_task", {{"projectId", p["id"]}, {"taskId", t["id"]}, {"status", "blocked"}});
    CHECK(u["status"] == "blocked");
    CHECK(u["doneOn"].is_null());  // leaving done clears it
    u = fx.call("update_project_task", {{"projectId", p["id"]}, {"taskId", t["id"]}, {"status", "done"}, {"doneOn", "2026-11-18"}});
    CHECK(u["doneOn"] == "2026-11-18");
    u = fx.call("update_project_task", {{"projectId", p["id"]}, {"taskId", t["id"]}, {"dueOn", nullptr}, {"assigneeDirectorId", nullptr},
                                        {"title", "Permis obtenu"}});
    CHECK(u["dueOn"].is_null());
    CHECK(u["assigneeDirectorId"].is_null());
    CHECK(u["contractorId"] == fx.roofer["id"]);  // what is not given stays
    CHECK(u["title"] == "Permis obtenu");
    CHECK(u["status"] == "done");
    CHECK(fx.call("get_project", {{"id", p["id"]}})["tasks"].size() == 1);
    fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_project_task", (json{{"projectId", p["id"]}, {"title", "Encore"}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_project_task", (json{{"projectId", p["id"]}, {"taskId", t["id"]}, {"status", "todo"}}));
}

TEST_CASE("change orders: numbered per project, approved within the budget without a resolution, above it by the board; credits always within") {
    ProjectsFixture fx;
    const auto bare = fx.approved_project({{"title", "Sans contrat"}});
    CHECK_REFUSED(fx, "NO_CONTRACT", "add_change_order",
                  (json{{"projectId", bare["id"]}, {"description", "Extra"}, {"amountCents", 100000}, {"reason", "Imprévu"}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "add_change_order",
                  (json{{"projectId", ghost}, {"description", "Extra"}, {"amountCents", 100000}, {"reason", "Imprévu"}}));
    const auto p = fx.awarded_project();  // contract 40,000.00, budget 50,000.00
    auto add = [&](std::int64_t cents, const std::string& what) {
        return fx.call("add_change_order", {{"projectId", p["id"]}, {"description", what}, {"amountCents", cents}, {"reason", "Découvert au chantier"}});
    };
    auto args = [&](const json& co, const std::string& decision) {
        return json{{"projectId", p["id"]}, {"changeOrderId", co["id"]}, {"decision", decision}};
    };
    auto approved_changes = [&]() { return fx.call("get_project", {{"id", p["id"]}})["approvedChangesCents"].get<std::int64_t>(); };
    const auto co1 = add(600000, "Pontage pourri à remplacer");
    CHECK(co1["number"] == "CO-1");
    CHECK(co1["status"] == "pending");
    CHECK(co1["amountCents"] == 600000);
    CHECK(co1["resolutionId"].is_null());
    CHECK(co1["decidedOn"].is_null());
    CHECK(fx.events_of(co1["id"]) == std::vector<std::string>{"change_order.created"});
    const auto d1 = fx.call("decide_change_order", args(co1, "approve"));
    CHECK(d1["status"] == "approved");
    CHECK(d1["decidedOn"] == "2026-11-21");
    CHECK(d1["resolutionId"].is_null());
    CHECK(fx.events_of(co1["id"]) == std::vector<std::string>{"change_order.created", "change_order.decided"});
    CHECK(approved_changes() == 600000);
    // A pending change counts for nothing: 40,000 + 6,000 + 4,000 is the budget exactly.
    const auto co2 = add(900000, "Isolant supplémentaire");
    const auto co3 = add(400000, "Drains neufs");
    CHECK(co2["number"] == "CO-2");
    CHECK(co3["number"] == "CO-3");
    CHECK(fx.call("decide_change_order", args(co3, "approve"))["status"] == "approved");
    CHECK(approved_changes() == 1000000);
    // Above the budget: the board's passed resolution.
    const auto board = fx.board();
    const auto general = fx.resolution_id("simple", "passed", "aga");
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "decide_change_order", args(co2, "approve"));
    auto with = [&](const json& co, const std::string& resolution) {
        auto a = args(co, "approve");
        a["resolutionId"] = resolution;
        return a;
    };
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "decide_change_order", with(co2, ghost));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "decide_change_order", with(co2, rejected));
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "decide_change_order", with(co2, general));
    const auto d2 = fx.call("decide_change_order", with(co2, board));
    CHECK(d2["status"] == "approved");
    CHECK(d2["resolutionId"] == board);
    CHECK(approved_changes() == 1900000);
    // A credit is within whatever the total: 40,000 + 19,000 - 1,000 is still above the budget.
    const auto co4 = add(-100000, "Crédit: solins conservés");
    CHECK(fx.call("decide_change_order", args(co4, "approve"))["status"] == "approved");
    CHECK(approved_changes() == 1800000);
    // Rejected, it is kept and counts for nothing; decided once.
    const auto co5 = add(50000, "Peinture des parapets");
    const auto d5 = fx.call("decide_change_order", args(co5, "reject"));
    CHECK(d5["status"] == "rejected");
    CHECK(d5["decidedOn"] == "2026-11-21");
    CHECK(approved_changes() == 1800000);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "decide_change_order", args(co5, "approve"));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "decide_change_order", args(co1, "reject"));
    CHECK_REFUSED(fx, "CHANGE_ORDER_NOT_FOUND", "decide_change_order", (json{{"projectId", p["id"]}, {"changeOrderId", ghost}, {"decision", "approve"}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "decide_change_order", (json{{"projectId", ghost}, {"changeOrderId", co5["id"]}, {"decision", "approve"}}));
    const auto co6 = add(70000, "Garde-corps");
    CHECK(co6["number"] == "CO-6");
    const auto budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["contractAmountCents"] == 4000000);
    CHECK(budget["approvedChangesCents"] == 1800000);
    CHECK(budget["pendingChangesCents"] == 70000);
    CHECK(budget["committedCents"] == 5800000);
    CHECK(fx.call("get_project", {{"id", p["id"]}})["changeOrders"].size() == 6);
    // Another project counts from 1; its change orders are not this one's; none once cancelled.
    const auto drains = fx.awarded_project({{"title", "Drains"}});
    const auto first = fx.call("add_change_order", {{"projectId", drains["id"]}, {"description", "Extra"}, {"amountCents", 1000}, {"reason", "x"}});
    CHECK(first["number"] == "CO-1");
    CHECK_REFUSED(fx, "CHANGE_ORDER_NOT_FOUND", "decide_change_order", (json{{"projectId", p["id"]}, {"changeOrderId", first["id"]}, {"decision", "reject"}}));
    fx.call("update_project", {{"id", drains["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_change_order",
                  (json{{"projectId", drains["id"]}, {"description", "Extra"}, {"amountCents", 1000}, {"reason", "x"}}));
}

TEST_CASE("an improvement's change above the budget the meeting approved needs a new absolute majority of the co-owners") {
    ProjectsFixture fx;
    const auto terrace = fx.project({{"title", "Terrasse sur le toit"}, {"category", "improvement"}, {"componentIds", json::array()},
                                     {"fundingSources", sources("operating", 5000000)}});
    fx.call("approve_project", {{"id", terrace["id"]}, {"resolutionId", fx.resolution_id("absolute", "passed", "aga")}});
    const auto p = fx.award(terrace, fx.quote(terrace));
    auto add = [&](std::int64_t cents) {
        return fx.call("add_change_order", {{"projectId", p["id"]}, {"description", "Extra"}, {"amountCents", cents}, {"reason", "Demande des copropriétaires"}});
    };
    const auto within = add(1000000);
    CHECK(fx.call("decide_change_order", {{"projectId", p["id"]}, {"changeOrderId", within["id"]}, {"decision", "approve"}})["status"] == "approved");
    const auto above = add(1);
    const auto board = fx.board();
    const auto simple = fx.resolution_id("simple", "passed", "aga");
    const auto absolute = fx.resolution_id("absolute", "passed", "aga");
    auto with = [&](const std::string& resolution) {
        return json{{"projectId", p["id"]}, {"changeOrderId", above["id"]}, {"decision", "approve"}, {"resolutionId", resolution}};
    };
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "decide_change_order", (json{{"projectId", p["id"]}, {"changeOrderId", above["id"]}, {"decision", "approve"}}));
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "decide_change_order", with(board));
    CHECK_REFUSED(fx, "MAJORITY_INSUFFICIENT", "decide_change_order", with(simple));
    const auto decided = fx.call("decide_change_order", with(absolute));
    CHECK(decided["status"] == "approved");
    CHECK(decided["resolutionId"] == absolute);
    CHECK(fx.call("get_project_budget", {{"id", p["id"]}})["committedCents"] == 5000001);
}

TEST_CASE("progress: the first update of a project with a contract starts it; a decrease says why") {
    ProjectsFixture fx;
    const auto bare = fx.approved_project({{"title", "Sans contrat"}});
    CHECK_REFUSED(fx, "NO_CONTRACT", "add_project_update", (json{{"projectId", bare["id"]}, {"date", "2026-11-20"}, {"progressPercent", 5}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "add_project_update", (json{{"projectId", ghost}, {"date", "2026-11-20"}, {"progressPercent", 5}}));
    const auto p = fx.awarded_project();
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "add_project_update",
                  (json{{"projectId", p["id"]}, {"date", "2026-11-20"}, {"progressPercent", 5}, {"documentIds", json::array({ghost})}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "add_project_update", (json{{"projectId", p["id"]}, {"date", "2026-11-22"}, {"progressPercent", 5}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_project_update", (json{{"projectId", p["id"]}, {"date", "2026-11-20"}, {"progressPercent", 101}}));
    const auto photo = fx.document();
    const auto u1 = fx.call("add_project_update", {{"projectId", p["id"]}, {"date", "2026-11-16"}, {"progressPercent", 15},
                                                   {"note", "Arrachage de l'ancienne membrane"}, {"documentIds", json::array({photo})}});
    CHECK(u1["projectId"] == p["id"]);
    CHECK(u1["progressPercent"] == 15);
    CHECK(u1["documentIds"] == json::array({photo}));
    auto got = fx.call("get_project", {{"id", p["id"]}});
    CHECK(got["status"] == "in-progress");
    CHECK(got["actualStart"] == "2026-11-16");
    CHECK(got["progressPercent"] == 15);
    CHECK((fx.has_event(p["id"], "project.progress_updated") || fx.has_event(u1["id"], "project.progress_updated")));
    const auto u2 = fx.call("add_project_update", {{"projectId", p["id"]}, {"date", "2026-11-19"}, {"progressPercent", 60}});
    CHECK(u2["note"].is_null());
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_project_update", (json{{"projectId", p["id"]}, {"date", "2026-11-20"}, {"progressPercent", 50}}));
    fx.call("add_project_update", {{"projectId", p["id"]}, {"date", "2026-11-20"}, {"progressPercent", 50}, {"note", "Une section à refaire"}});
    got = fx.call("get_project", {{"id", p["id"]}});
    CHECK(got["status"] == "in-progress");
    CHECK(got["actualStart"] == "2026-11-16");  // set once
    CHECK(got["progressPercent"] == 50);
    CHECK(got["updates"].size() == 3);
    // None once cancelled.
    const auto drains = fx.awarded_project({{"title", "Drains"}});
    fx.call("update_project", {{"id", drains["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_project_update", (json{{"projectId", drains["id"]}, {"date", "2026-11-20"}, {"progressPercent", 5}}));
}

}  // TEST_SUITE

}  // namespace projects_contract_test
