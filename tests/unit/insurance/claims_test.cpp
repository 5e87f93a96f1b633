// Insurance claims and the co-owners' liability certificates (catalogue §3.3): a claim on a policy in
// force, its deductible by peril and paid from the self-insurance fund under an authorisation, the
// insurer's answer, the indemnity booked, the deductible charged back; certificates against the
// $1M / $2M minimum. The fixture's clock makes today 2026-11-21.
#include "declaration/declaration_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace insurance_claims_test {

using namespace syndic::test;

namespace {

struct Claims : DeclarationFixture {
    json u101 = unit("101", 50);
    json u102 = unit("102", 50);
    json owner = co_owner(u101["id"], "Émilie", "Bélanger");
    json other = co_owner(u102["id"], "Luc", "Côté");
    json policy = call("create_insurance_policy",
                       {{"kind", "property"}, {"insurer", "Assurances Mont-Royal"}, {"policyNumber", "CP-1"}, {"startDate", "2026-01-01"},
                        {"endDate", "2027-01-01"},
                        {"coverages", {{{"peril", "Incendie"}, {"amountCents", 1000000000}, {"deductibleCents", 1000000}},
                                       {{"peril", "Dégât d'eau"}, {"amountCents", 1000000000}, {"deductibleCents", 2500000}},
                                       {{"peril", "Tremblement de terre"}, {"amountCents", 1000000000}, {"deductibleCents", 7500000}}}}});
    json claim(json extra = json::object()) {
        json a = {{"policyId", policy["id"]}, {"occurredOn", "2026-10-01"}, {"reportedOn", "2026-10-02"}, {"peril", "dégât d'eau"},
                  {"description", "Tuyau éclaté au 101"}, {"location", "both"}, {"unitIds", {u101["id"]}}, {"estimatedLossCents", 4000000}};
        a.update(extra);
        return a;
    }
    std::string account(const std::string& fund, const std::string& code) {
        const auto accounts = call("list_accounts", {{"fund", fund}, {"pageSize", 200}});  // kept: a loop over a temporary's member dangles
        for (const auto& a : accounts["data"])
            if (a["code"] == code) return a["id"];
        return "";
    }
    std::int64_t balance(const std::string& fund, const std::string& code) {
        const auto accounts = call("list_accounts", {{"fund", fund}, {"pageSize", 200}});
        for (const auto& a : accounts["data"])
            if (a["code"] == code) return a["balanceCents"].get<std::int64_t>();
        return 0;
    }
};

}  // namespace

TEST_SUITE("insurance-claims") {

TEST_CASE("a claim on a policy in force, its deductible by peril, the self-insurance fund's authorisation proposed and given") {
    Claims fx;
    CHECK(fx.policy["highestDeductibleCents"] == 2500000);  // the earthquake's 75,000 left out
    CHECK_REFUSED(fx, "POLICY_NOT_IN_FORCE", "record_insurance_claim", (fx.claim({{"occurredOn", "2025-12-31"}, {"reportedOn", "2026-01-02"}})));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_insurance_claim", (fx.claim({{"reportedOn", "2026-09-30"}})));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_insurance_claim", (fx.claim({{"location", "private"}, {"unitIds", json::array()}})));
    const auto c = fx.call("record_insurance_claim", fx.claim());
    CHECK(c["status"] == "open");
    CHECK(c["deductibleCents"] == 2500000);  // the water damage's
    CHECK(c["proposedFundUse"]["arguments"]["fund"] == "self-insurance");
    CHECK(fx.call("record_insurance_claim", fx.claim({{"peril", "vol"}}))["deductibleCents"] == 7500000);  // no match: the highest
    // The board authorises the deductible from the self-insurance fund.
    fx.call("record_journal_entry", {{"date", "2026-01-02"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                     {"lines", {{{"accountId", fx.account("self-insurance", "1010")}, {"debitCents", 3000000}},
                                                {{"accountId", fx.account("self-insurance", "3000")}, {"creditCents", 3000000}}}}});
    const auto board = fx.resolution_id("simple", "passed", "board");
    auto use = c["proposedFundUse"]["arguments"];
    use["resolutionId"] = board;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "authorize_fund_use", ([&] { auto u = use; u["use"] = "uninsured-damage"; return u; }()));
    const auto authorised = fx.call("authorize_fund_use", use);
    CHECK(authorised["insuranceClaimId"] == c["id"]);
    CHECK(fx.call("list_insurance_claims", {{"status", "open"}, {"unitId", fx.u101["id"]}})["data"][0]["fundUseAuthorizationId"].is_string());
    CHECK(fx.call("list_insurance_claims", {{"lastYears", 5}})["pagination"]["total"] == 2);
    CHECK(fx.call("list_insurance_claims", {{"unitId", fx.u102["id"]}})["pagination"]["total"] == 0);
}

TEST_CASE("a claim followed: accepted, paid with its indemnity booked, closed; the deductible charged back to the co-owner responsible") {
    Claims fx;
    const auto c = fx.call("record_insurance_claim", fx.claim());
    const std::string id = c["id"];
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_insurance_claim", (json{{"id", id}, {"status", "paid"}, {"indemnityCents", 1}}));
    fx.call("update_insurance_claim", {{"id", id}, {"status", "accepted"}, {"claimNumber", "SIN-2026-88"}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_claim", (json{{"id", id}, {"status", "paid"}}));
    const auto paid = fx.call("update_insurance_claim", {{"id", id}, {"status", "paid"}, {"indemnityCents", 1500000}, {"indemnityReceivedOn", "2026-11-15"}});
    CHECK(paid["indemnityEntryId"].is_string());
    CHECK(fx.balance("operating", "4400") == -1500000);
    CHECK(fx.balance("operating", "1010") == 1500000);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_claim", (json{{"id", id}, {"indemnityCents", 1}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_claim", (json{{"id", id}, {"recoverDeductible", true}}));  // no one responsible
    const auto back = fx.call("update_insurance_claim", {{"id", id}, {"responsibleCoOwnerId", fx.owner["id"]}, {"recoverDeductible", true}});
    REQUIRE(back["deductibleRecoveryChargeId"].is_string());
    SQLite::Statement q(fx.db->sql(), "SELECT c.kind, c.unit_id, f.fund, f.amount_cents FROM charges c JOIN charge_fund_lines f ON f.charge_id = c.id WHERE c.id = ?");
    q.bind(1, back["deductibleRecoveryChargeId"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "deductible-recovery");
    CHECK(json(q.getColumn(1).getString()) == fx.u101["id"]);
    CHECK(q.getColumn(2).getString() == "self-insurance");
    CHECK(q.getColumn(3).getInt64() == 2500000);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_claim", (json{{"id", id}, {"recoverDeductible", true}}));  // once
    fx.call("update_insurance_claim", {{"id", id}, {"status", "closed"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_insurance_claim", (json{{"id", id}, {"claimNumber", "X"}}));
    CHECK(fx.events_of(id).front() == "insurance_claim.created");
}

TEST_CASE("co-owners' liability certificates against the $1M minimum under 13 dwellings; the newer supersedes; units without one listed") {
    Claims fx;
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_co_owner_insurance_certificate",
                  (json{{"coOwnerId", fx.owner["id"]}, {"insurer", "Desjardins"}, {"policyNumber", "H-1"}, {"liabilityCents", 200000000},
                        {"startDate", "2026-06-01"}, {"endDate", "2026-06-01"}}));
    const auto low = fx.call("record_co_owner_insurance_certificate", {{"coOwnerId", fx.owner["id"]}, {"insurer", "Desjardins"}, {"policyNumber", "H-1"},
                                                                      {"liabilityCents", 50000000}, {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
    CHECK(low["requiredCents"] == 100000000);
    CHECK(low["compliant"] == false);
    CHECK(low["status"] == "insufficient");
    CHECK(low["warnings"].size() == 1);
    const auto listed = fx.call("list_co_owner_insurance_certificates");
    CHECK(listed["pagination"]["total"] == 1);
    REQUIRE(listed["missing"].size() == 1);
    CHECK(listed["missing"][0]["unitNumber"] == "102");
    // A newer certificate, ending within 30 days: it supersedes the older one.
    const auto newer = fx.call("record_co_owner_insurance_certificate", {{"coOwnerId", fx.owner["id"]}, {"insurer", "Desjardins"}, {"policyNumber", "H-2"},
                                                                        {"liabilityCents", 100000000}, {"startDate", "2025-12-10"}, {"endDate", "2026-12-10"}});
    CHECK(newer["status"] == "expiring");
    CHECK(newer["compliant"] == true);
    CHECK(fx.call("list_co_owner_insurance_certificates")["pagination"]["total"] == 1);
    CHECK(fx.call("list_co_owner_insurance_certificates", {{"status", "expiring"}})["data"][0]["policyNumber"] == "H-2");
    const auto missing = fx.call("list_co_owner_insurance_certificates", {{"status", "missing"}});
    CHECK(missing["data"].empty());
    CHECK(missing["missing"].size() == 1);
    // From 13 fractions used as dwellings or enterprises, the minimum is $2,000,000.
    for (int n = 3; n <= 13; ++n) fx.unit("1" + std::to_string(100 + n));
    CHECK(fx.call("list_co_owner_insurance_certificates")["requiredCents"] == 200000000);
    fx.unit("P-9", 0, "parking");  // a parking is no dwelling: still 13
    CHECK(fx.call("list_co_owner_insurance_certificates", {{"status", "insufficient"}})["data"].size() == 1);
}

}  // TEST_SUITE

}  // namespace insurance_claims_test
