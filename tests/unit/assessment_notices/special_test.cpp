// Special assessments, cancellation and sending again (catalogue §4.5): a special contribution the
// board decided, shared by relative value, among a restricted portion's users or by an art. 1097
// resolution's shares, adding up to its total to the cent; a notice cancelled by counter-entries,
// what was paid of it the payer's credit again; an issued notice sent again in another language.
// The board's resolutions are decided on 2026-12-15; the clock is moved to the next day.
#include "declaration/declaration_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <stdlib.h>  // mkdtemp
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace special_assessments_test {

using namespace syndic::test;

namespace {

struct Special : DeclarationFixture {
    std::string data_dir;
    json u101 = unit("101", 40);
    json p1 = unit("P-1", 5, "parking", {{"linkedUnits", {u101["id"]}}});
    json u102 = unit("102", 30);
    json u201 = unit("201", 25);  // no co-owner
    json emilie, luc;
    std::string board, general, general_absolute;

    Special() {
        char pattern[] = "/tmp/syndic-special-test-XXXXXX";
        data_dir = mkdtemp(pattern);
        db->set_data_dir(data_dir);
        emilie = co_owner(u101["id"], "Émilie", "Bélanger", {{"email", "emilie@example.ca"}});
        luc = co_owner(u102["id"], "Luc", "Côté", {{"language", "en"}, {"email", "luc@example.ca"}});
        board = resolution_id("simple", "passed", "board");
        general = resolution_id("simple");
        general_absolute = resolution_id("absolute");
        clock.set(*syndic::parse_iso_instant("2026-12-16T15:00:00Z"));
    }
    ~Special() {
        std::error_code ignored;
        std::filesystem::remove_all(data_dir, ignored);
    }
    Special(const Special&) = delete;
    Special& operator=(const Special&) = delete;

    json args(std::int64_t cents, json extra = json::object()) {
        json a = {{"title", "Réfection de la toiture"}, {"reason", "Le toit fuit; l'étude recommande de le refaire."},
                  {"fund", "contingency"}, {"totalCents", cents}, {"apportionment", "fractions"}, {"resolutionId", board},
                  {"installments", {{{"dueOn", "2027-01-01"}, {"percent", 33.333333}}, {{"dueOn", "2027-04-01"}, {"percent", 33.333333}},
                                    {{"dueOn", "2027-07-01"}, {"percent", 33.333334}}}}};
        a.update(extra);
        return a;
    }
    std::int64_t fund_imbalance() {
        SQLite::Statement q(db->sql(), "SELECT coalesce(max(abs(t)), 0) FROM (SELECT sum(debit_cents) - sum(credit_cents) AS t "
                                       "FROM journal_lines WHERE syndicate_id = ? GROUP BY fund)");
        q.bind(1, syndicate);
        q.executeStep();
        return q.getColumn(0).getInt64();
    }
};

std::int64_t sum_of(const json& rows, const char* key) {
    std::int64_t s = 0;
    for (const auto& r : rows) s += r[key].get<std::int64_t>();
    return s;
}

}  // namespace

TEST_SUITE("special-assessments") {

TEST_CASE("a special contribution by fractions: the board's decision, instalments of given percents, notices adding up to the cent") {
    Special fx;
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "create_special_assessment", (fx.args(1000001, {{"resolutionId", fx.general}})));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_special_assessment",
                  (fx.args(1000001, {{"installments", {{{"dueOn", "2027-01-01"}, {"percent", 99.999999}}}}})));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_special_assessment",
                  (fx.args(1000001, {{"installments", {{{"dueOn", "2026-12-01"}, {"percent", 100}}}}})));  // already due
    CHECK_REFUSED(fx, "COMMON_PORTION_NOT_FOUND", "create_special_assessment", (fx.args(1000001, {{"commonPortionId", fx.u101["id"]}})));
    const auto s = fx.call("create_special_assessment", fx.args(1000001));
    CHECK(s["decidedOn"] == "2026-12-15");
    CHECK(s["fiscalYear"] == 2027);
    REQUIRE(s["notices"].size() == 3);  // 101 with its parking, 102, 201
    CHECK(sum_of(s["notices"], "totalCents") == 1000001);
    CHECK(s["warnings"].size() == 1);   // 201 has no co-owner
    const auto n = fx.call("get_assessment_notice", {{"id", s["notices"][0]["id"]}});
    CHECK(n["kind"] == "special");
    CHECK(n["specialAssessment"]["title"] == "Réfection de la toiture");
    CHECK(n["lines"][0]["basis"] == "fractions");
    // 45 % of 10,000.01 $ = 4,500.0045 → 4,500.00 (largest remainders elsewhere); instalments by
    // percent, the remainder on the first.
    REQUIRE(n["installments"].size() == 3);
    CHECK(sum_of(n["installments"], "amountCents") == n["totalCents"]);
    CHECK(n["installments"][1]["amountCents"] <= n["installments"][0]["amountCents"]);
    // Issued like the year's: charges of kind special, owed on each due date.
    const auto issued = fx.call("issue_assessment_notices", {{"fiscalYear", 2027}, {"kind", "special"}});
    CHECK(issued["issued"] == 3);
    CHECK(issued["charges"] == 12);  // 3 instalments × 4 units
    const auto st = fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-12-31"}});
    CHECK(st["closingBalanceCents"] == s["notices"][1]["totalCents"]);
    CHECK(st["lines"][0]["kind"] == "special");
    CHECK(fx.events_of(s["id"]) == std::vector<std::string>{"special_assessment.created"});
}

TEST_CASE("among a restricted portion's users, by an art. 1097 resolution's shares, after a consultation the declaration asks") {
    Special fx;
    const auto garage = fx.call("set_common_portion", {{"name", "Garage"}, {"kind", "restricted"}, {"initial", true},
                                                       {"unitIds", {fx.u101["id"], fx.u102["id"]}}});
    const auto r = fx.call("create_special_assessment",
                           fx.args(70001, {{"apportionment", "restricted-users"}, {"commonPortionId", garage["id"]}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_special_assessment", (fx.args(70001, {{"commonPortionId", garage["id"]}})));
    REQUIRE(r["notices"].size() == 2);  // only its users: 101 (40) and 102 (30)
    CHECK(sum_of(r["notices"], "totalCents") == 70001);
    CHECK(r["notices"][0]["totalCents"] == 40001);
    CHECK(r["notices"][1]["totalCents"] == 30000);
    // Shares fixed by the general meeting (at least absolute) with the works.
    const json shares = {{{"unitId", fx.u101["id"]}, {"percent", 60}}, {{"unitId", fx.u201["id"]}, {"percent", 40}}};
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_special_assessment", (fx.args(100000, {{"apportionment", "resolution"}, {"shares", shares}})));
    CHECK_REFUSED(fx, "MAJORITY_INSUFFICIENT", "create_special_assessment",
                  (fx.args(100000, {{"apportionment", "resolution"}, {"shares", shares}, {"sharesResolutionId", fx.general}})));
    const auto absolute = fx.general_absolute;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_special_assessment",
                  (fx.args(100000, {{"apportionment", "resolution"}, {"shares", json::array({{{"unitId", fx.u101["id"]}, {"percent", 90}}})},
                                    {"sharesResolutionId", absolute}})));
    const auto by = fx.call("create_special_assessment",
                            fx.args(100000, {{"apportionment", "resolution"}, {"shares", shares}, {"sharesResolutionId", absolute}}));
    REQUIRE(by["notices"].size() == 2);
    CHECK(by["notices"][0]["totalCents"] == 60000);
    CHECK(by["notices"][1]["totalCents"] == 40000);
    CHECK(fx.call("get_assessment_notice", {{"id", by["notices"][0]["id"]}})["lines"][0]["basis"] == "resolution");
    // The declaration asks for a consultation: a held general meeting whose agenda presented it.
    fx.call("update_declaration", {{"specialAssessmentRequiresConsultation", true}});
    CHECK_REFUSED(fx, "CONSULTATION_REQUIRED", "create_special_assessment", (fx.args(1000)));
    fx.clock.set(*syndic::parse_iso_instant("2026-11-21T15:00:00Z"));
    const auto point = fx.meeting();  // agenda "Point": not presented
    fx.all_present(point);
    fx.clock.set(*syndic::parse_iso_instant("2026-12-15T21:00:00-05:00"));
    fx.call("update_meeting", {{"id", point["id"]}, {"status", "held"}});
    fx.clock.set(*syndic::parse_iso_instant("2026-11-21T15:00:00Z"));
    CHECK_REFUSED(fx, "CONSULTATION_REQUIRED", "create_special_assessment", (fx.args(1000, {{"consultationMeetingId", point["id"]}})));
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "create_special_assessment",
                  (fx.args(1000, {{"consultationMeetingId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}})));
    const auto m = fx.call("create_meeting", {{"title", "AGE"}, {"type", "aga-special"}, {"scheduledAt", "2026-12-15T18:00:00-05:00"},
                                              {"location", "Salle"}, {"agenda", json::array({"Présentation de la cotisation spéciale pour la toiture"})}});
    fx.call("send_meeting_notice", {{"meetingId", m["id"]}});
    fx.all_present(m);
    fx.clock.set(*syndic::parse_iso_instant("2026-12-15T21:00:00-05:00"));
    fx.call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
    const auto consulted = fx.call("create_special_assessment", fx.args(1000, {{"consultationMeetingId", m["id"]}}));
    CHECK(consulted["consultationMeetingId"] == m["id"]);
}

TEST_CASE("the project it finances: an improvement's cost shared as the co-owners' approval fixed it, never before it") {
    Special fx;
    const auto ghost = std::string("3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99");
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "create_special_assessment", (fx.args(1000, {{"projectId", ghost}})));
    CHECK_REFUSED(fx, "INSURANCE_CLAIM_NOT_FOUND", "create_special_assessment", (fx.args(1000, {{"insuranceClaimId", ghost}})));
    const auto terrace = fx.call("create_project", {{"title", "Terrasse sur le toit"}, {"category", "improvement"}, {"budgetCents", 100000},
                                                    {"fundingSources", {{{"fund", "special-assessment"}, {"amountCents", 100000}}}}});
    const json shares = {{{"unitId", fx.u101["id"]}, {"percent", 60}}, {{"unitId", fx.u201["id"]}, {"percent", 40}}};
    const auto by_resolution = fx.args(100000, {{"apportionment", "resolution"}, {"shares", shares}, {"projectId", terrace["id"]}});
    CHECK_REFUSED(fx, "PROJECT_NOT_APPROVED", "create_special_assessment", by_resolution);
    fx.call("approve_project", {{"id", terrace["id"]}, {"resolutionId", fx.general_absolute}});
    // The approval of the project is the sharing resolution when none is given.
    const auto s = fx.call("create_special_assessment", by_resolution);
    CHECK(s["projectId"] == terrace["id"]);
    CHECK(s["sharesResolutionId"] == fx.general_absolute);
    CHECK(s["notices"][0]["totalCents"] == 60000);
    // A repair's cost needs no meeting's sharing: by fractions, linked to the project.
    const auto roof = fx.call("create_project", {{"title", "Toiture"}, {"category", "major-repair"}, {"budgetCents", 100000},
                                                 {"fundingSources", {{{"fund", "special-assessment"}, {"amountCents", 100000}}}}});
    CHECK(fx.call("create_special_assessment", fx.args(100000, {{"projectId", roof["id"]}, {"title", "Toiture (cotisation)"}}))["projectId"] == roof["id"]);
}

TEST_CASE("an issued notice cancelled: the unpaid reversed, the paid the payer's credit again, the books balanced; a draft cancelled") {
    Special fx;
    const auto s = fx.call("create_special_assessment", fx.args(1000001));
    const std::string n102 = s["notices"][1]["id"];
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "cancel_assessment_notice", (json{{"id", n102}, {"reason", "Erreur"}}));
    fx.call("issue_assessment_notices", {{"fiscalYear", 2027}, {"kind", "special"}});
    fx.clock.set(*syndic::parse_iso_instant("2027-01-15T15:00:00Z"));
    const auto paid = fx.call("record_payment", {{"unitId", fx.u102["id"]}, {"amountCents", 50000}, {"receivedOn", "2027-01-10"}, {"method", "cheque"}});
    CHECK(paid["unappliedCents"] == 0);
    const auto total = fx.call("get_assessment_notice", {{"id", n102}})["totalCents"].get<std::int64_t>();
    const auto c = fx.call("cancel_assessment_notice", {{"id", n102}, {"reason", "Montant erroné"}});
    CHECK(c["status"] == "cancelled");
    CHECK(c["cancelReason"] == "Montant erroné");
    CHECK(c["paidCents"] == 0);
    CHECK(c["cancellation"]["chargesCancelled"] == 3);
    CHECK(c["cancellation"]["releasedToCreditCents"] == 50000);
    CHECK(c["cancellation"]["unpaidReversedCents"] == total - 50000);
    // Today for the instalment due, each later one on its own due date.
    CHECK(c["cancellation"]["datedOn"] == json::array({"2027-01-15", "2027-04-01", "2027-07-01"}));
    CHECK(fx.fund_imbalance() == 0);
    // The payment is credit again; the lot owes nothing and holds 500.00.
    const auto p = fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-12-31"}});
    CHECK(p["closingBalanceCents"] == -50000);
    CHECK(p["standing"]["creditCents"] == 50000);
    SQLite::Statement released(fx.db->sql(), "SELECT count(*) FROM payment_allocations WHERE payment_id = ? AND released_on = '2027-01-15'");
    released.bind(1, paid["id"].get<std::string>());
    released.executeStep();
    CHECK(released.getColumn(0).getInt() > 0);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "cancel_assessment_notice", (json{{"id", n102}, {"reason", "Encore"}}));
    // The payment then bounces: the books hold, the lot back to nothing.
    fx.call("reverse_payment", {{"id", paid["id"]}, {"reason", "error"}, {"reversedOn", "2027-01-15"}});
    CHECK(fx.fund_imbalance() == 0);
    CHECK(fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-12-31"}})["closingBalanceCents"] == 0);
    // A draft is cancelled with nothing posted.
    const auto d = fx.call("create_special_assessment", fx.args(5000, {{"installments", {{{"dueOn", "2027-03-01"}, {"percent", 100}}}}}));
    const auto cd = fx.call("cancel_assessment_notice", {{"id", d["notices"][0]["id"]}, {"reason", "Doublon"}});
    CHECK(cd["cancellation"]["chargesCancelled"] == 0);
    CHECK(cd["status"] == "cancelled");
}

TEST_CASE("credit paid ahead meets each debt on the first day both exist, whatever order the charges were issued in") {
    Special fx;
    const auto a = fx.call("create_special_assessment", fx.args(1000001));
    fx.call("issue_assessment_notices", {{"fiscalYear", 2027}, {"kind", "special"}});
    const auto n102 = fx.call("get_assessment_notice", {{"id", a["notices"][1]["id"]}});
    const auto total = n102["totalCents"].get<std::int64_t>();
    // 102 pays the whole special assessment ahead: its credit meets each instalment on its day.
    const auto ahead = fx.call("record_payment", {{"unitId", fx.u102["id"]}, {"amountCents", total}, {"receivedOn", "2026-12-16"}, {"method", "cheque"}});
    CHECK(ahead["allocations"].size() == 3);
    // Then the board decides another, due on February 1: the credit there on that day pays it, and
    // the July instalment, met later, is what stays owed.
    const auto b = fx.call("create_special_assessment", fx.args(30000, {{"title", "Porte du garage"},
                                                                         {"installments", {{{"dueOn", "2027-02-01"}, {"percent", 100}}}}}));
    fx.call("issue_assessment_notices", {{"fiscalYear", 2027}, {"kind", "special"}});
    const auto b102 = fx.call("get_assessment_notice", {{"id", b["notices"][1]["id"]}});
    const auto feb = fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-02-02"}})["standing"];
    CHECK(feb["overdueCents"] == 0);
    const auto july = fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-07-02"}})["standing"];
    CHECK(july["overdueCents"] == b102["totalCents"]);
    CHECK(july["overdueSince"] == "2027-07-01");
    CHECK(fx.fund_imbalance() == 0);
    // The credit's application to April and July was undone on their days and planned again: each
    // undone entry has its counter-entry on the same day.
    SQLite::Statement undone(fx.db->sql(), "SELECT count(*) FROM payment_allocations a JOIN journal_entries r ON r.id = a.release_entry_id "
                                            "WHERE a.payment_id = ? AND r.reverses_entry_id = a.entry_id AND a.released_on = a.applied_on");
    undone.bind(1, ahead["id"].get<std::string>());
    undone.executeStep();
    CHECK(undone.getColumn(0).getInt() > 0);
}

TEST_CASE("an issued notice sent again in English, to an addressee or the lot's co-owner today; never a draft") {
    Special fx;
    const auto s = fx.call("create_special_assessment", fx.args(1000001));
    const std::string n101 = s["notices"][0]["id"];
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "resend_assessment_notice", (json{{"id", n101}}));
    fx.call("issue_assessment_notices", {{"fiscalYear", 2027}, {"kind", "special"}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "resend_assessment_notice", (json{{"id", n101}, {"coOwnerIds", {fx.luc["id"]}}}));
    const auto r = fx.call("resend_assessment_notice", {{"id", n101}, {"language", "en"}});
    CHECK(r["queued"] == 1);
    CHECK(r["documentIds"].size() == 1);
    const auto n = fx.call("get_assessment_notice", {{"id", n101}});
    CHECK(n["documentIds"].size() == 2);  // the first, kept, and the copy
    SQLite::Statement q(fx.db->sql(), "SELECT subject, language FROM outbox WHERE related_id = ? ORDER BY rowid");
    q.bind(1, n101);
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString().find("Avis de cotisation spéciale") == 0);
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString().find("Notice of special assessment") == 0);
    CHECK(q.getColumn(0).getString().find("(copy)") != std::string::npos);
    CHECK(q.getColumn(1).getString() == "en");
    CHECK(fx.events_of(n101).back() == "assessment_notice.resent");
}

}  // TEST_SUITE

}  // namespace special_assessments_test
