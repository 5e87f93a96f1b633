#include "modules/insurance/insurance.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/insurance/perils.hpp"
#include "modules/insurance/tools.hpp"
#include "modules/record_table.hpp"

namespace syndic {



namespace {

// A policy covers from startDate until endDate, the day it ends (its renewal date).
#define EXPIRED "(" SYNDIC_TODAY " >= r.end_date)"
#define STATUS "CASE WHEN " SYNDIC_TODAY " < r.start_date THEN 'upcoming' WHEN " EXPIRED " THEN 'expired' ELSE 'active' END"
// expiringSoon: in force and ending within the syndicate's setting policyExpiringSoonDays
// (storage/settings), else the default its manifest declares (tests/unit/manifests_test.cpp holds
// the two equal).
#define SYNDIC_DEFAULT_EXPIRING_SOON_DAYS "60"
#define EXPIRING_SOON_DAYS "coalesce(CAST(s.value AS INTEGER), " SYNDIC_DEFAULT_EXPIRING_SOON_DAYS ")"
#define EXPIRING_SOON                                                                            \
    "(r.start_date <= " SYNDIC_TODAY " AND NOT " EXPIRED " AND r.end_date <= date(" SYNDIC_TODAY \
    ", '+' || " EXPIRING_SOON_DAYS " || ' days'))"
// Civil Code of Québec, art. 1073: the building's reconstruction cost is appraised every 5 years.
#define APPRAISAL_DUE_BY \
    "CASE WHEN r.kind = 'property' AND r.last_appraisal_date IS NOT NULL THEN date(r.last_appraisal_date, '+5 years') END"
#define APPRAISAL_OUTDATED                                                                               \
    "(r.kind = 'property' AND NOT " EXPIRED " AND (r.last_appraisal_date IS NULL OR date(r.last_appraisal_date, " \
    "'+5 years') < " SYNDIC_TODAY "))"

using enum FieldType;
const RecordTable policies{
    "insurance_policies",
    {{"kind", "kind", required_text},
     {"insurer", "insurer", required_text},
     {"broker", "broker", text},
     {"policyNumber", "policy_number", required_text},
     {"startDate", "start_date", date},
     {"endDate", "end_date", date},
     {"coverages", "coverages", json_value},
     {"premiumCents", "premium_cents", integer},
     {"lastAppraisalDate", "last_appraisal_date", date},
     {"notes", "notes", text},
     {"status", STATUS, text, FieldRole::computed},
     {"expiringSoon", EXPIRING_SOON, boolean, FieldRole::computed},
     {"appraisalDueBy", APPRAISAL_DUE_BY, date, FieldRole::computed},
     {"appraisalOutdated", APPRAISAL_OUTDATED, boolean, FieldRole::computed}},
    " LEFT JOIN settings s ON s.syndicate_id = r.syndicate_id AND s.name = 'policyExpiringSoonDays'",
};

// Coverages as stored: peril trimmed, deductible 0 when not given, each peril once.
nlohmann::json coverages(const nlohmann::json& given) {
    nlohmann::json out = nlohmann::json::array();
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < given.size(); ++i) {
        const auto& c = given[i];
        const std::string peril = nonblank_text(c["peril"], "/coverages/" + std::to_string(i) + "/peril");
        const std::string folded = fold_for_search(peril);
        for (std::size_t j = 0; j < seen.size(); ++j)
            if (seen[j] == folded)
                throw DomainError(codes::duplicate_peril, "The peril '" + peril + "' is listed twice (items " +
                                                              std::to_string(j) + " and " + std::to_string(i) +
                                                              "); give each peril once with its amount and deductible.")
                    .at("/coverages/" + std::to_string(i) + "/peril");
        seen.push_back(folded);
        out.push_back({{"peril", peril},
                       {"amountCents", c["amountCents"]},
                       {"deductibleCents", c.value("deductibleCents", std::int64_t{0})}});
    }
    return out;
}

void check_policy(const ToolCall& call, const nlohmann::json& record, nlohmann::json& values) {
    if (values.contains("coverages")) values["coverages"] = coverages(values["coverages"]);
    const auto after = merged(record, values);
    const auto start = after["startDate"].get<std::string>(), end = after["endDate"].get<std::string>();
    if (end <= start)
        throw DomainError(codes::invalid_date_range,
                          "The policy ends on " + end + ", which is not after its start on " + start + ".")
            .at(values.contains("endDate") ? "/endDate" : "/startDate")
            .with("startDate", start)
            .with("endDate", end);
    const auto day = today(call);
    if (after.value("lastAppraisalDate", nlohmann::json()).is_string() && after["lastAppraisalDate"] > day)
        throw DomainError(codes::invalid_date_range, "The appraisal date " + after["lastAppraisalDate"].get<std::string>() +
                                                         " is in the future.")
            .at("/lastAppraisalDate")
            .with("today", day);
}

// The record with its highest deductible outside earthquake and flood (the self-insurance formula's).
nlohmann::json with_deductible(nlohmann::json record) {
    record["highestDeductibleCents"] = insurance::highest_deductible(record["coverages"]);
    return record;
}

nlohmann::json list_insurance_policies(const ToolCall& call) {
    const auto a = call.arguments();
    auto out = list_records(call, policies,
                        "(?2 IS NULL OR r.kind = ?2) AND (?3 IS NULL OR " STATUS " = ?3) AND (?4 IS NULL OR " EXPIRING_SOON
                        " = ?4) AND (?5 IS NULL OR " APPRAISAL_OUTDATED " = ?5)",
                        // Policies in force or to come, soonest end first; then the expired, latest first.
                        EXPIRED ", CASE WHEN " EXPIRED " THEN NULL ELSE r.end_date END, r.end_date DESC, r.kind, r.id",
                        [&](SQLite::Statement& q) {
                            if (a.has("kind")) q.bind(2, a.text("kind"));
                            if (a.has("status")) q.bind(3, a.text("status"));
                            if (a.has("expiringSoon")) q.bind(4, a.flag("expiringSoon", false) ? 1 : 0);
                            if (a.has("appraisalOutdated")) q.bind(5, a.flag("appraisalOutdated", false) ? 1 : 0);
                        });
    for (auto& r : out["data"]) r = with_deductible(std::move(r));
    return out;
}

nlohmann::json create_insurance_policy(const ToolCall& call) { return with_deductible(create_from_arguments(call, policies, check_policy)); }

nlohmann::json update_insurance_policy(const ToolCall& call) { return with_deductible(update_from_arguments(call, policies, check_policy)); }

nlohmann::json delete_insurance_policy(const ToolCall& call) {
    return with_deductible(archive_record(call, policies, call.arguments().text("id")));
}

}  // namespace

void register_insurance_module(ToolTable& table) {
    table.bind("list_insurance_policies", list_insurance_policies);
    table.bind("create_insurance_policy", create_insurance_policy);
    table.bind("update_insurance_policy", update_insurance_policy);
    table.bind("delete_insurance_policy", delete_insurance_policy);
    table.bind("list_insurance_claims", insurance::list_insurance_claims);
    table.bind("record_insurance_claim", insurance::record_insurance_claim);
    table.bind("update_insurance_claim", insurance::update_insurance_claim);
    table.bind("list_co_owner_insurance_certificates", insurance::list_co_owner_insurance_certificates);
    table.bind("record_co_owner_insurance_certificate", insurance::record_co_owner_insurance_certificate);
}

}  // namespace syndic

// This file's SQL fragments end with it (a unity build compiles several files as one).
#undef EXPIRED
#undef STATUS
#undef SYNDIC_DEFAULT_EXPIRING_SOON_DAYS
#undef EXPIRING_SOON_DAYS
#undef EXPIRING_SOON
#undef APPRAISAL_DUE_BY
#undef APPRAISAL_OUTDATED
