// issue_assessment_notices (catalogue §4.5, links L2, L3, L25): drafts issued — each instalment of
// each unit posted as a charge of the ledger dated its due date (the lot's credit takes it at once),
// the notice rendered as a PDF in each addressee's language and kept as a protected document, and
// queued by e-mail to the addressees with the PDF attached. Issued amounts never change.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/assessment_notices/delivery.hpp"
#include "modules/assessment_notices/notice_pdf.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/funds/apportionment.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

// The notices to issue: those named (each a draft), or the drafts of a fiscal year and kind.
std::vector<Notice> notices_to_issue(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    std::vector<Notice> out;
    if (a.given("ids")) {
        const auto ids = a.texts("ids");
        for (std::size_t i = 0; i < ids.size(); ++i) {
            auto n = require_notice(call.db, syndicate, ids[i], "/ids/" + std::to_string(i));
            if (n.status != "draft")
                throw DomainError(codes::invalid_status_transition, "The notice " + n.number + " is " + n.status + ": only a draft is issued.")
                    .at("/ids/" + std::to_string(i))
                    .with("status", n.status);
            out.push_back(std::move(n));
        }
        return out;
    }
    if (!a.given("fiscalYear"))
        throw invalid_argument("/fiscalYear", "is required without ids", "Name the notices (ids), or the fiscal year whose drafts to issue.");
    auto q = call.db.prepare(
        "SELECT id FROM assessment_notices WHERE syndicate_id = ? AND fiscal_year = ? AND kind = ? AND status = 'draft' ORDER BY number");
    bind_parameters(*q, syndicate, a.integer("fiscalYear"), a.text_or("kind", "regular"));
    while (q->executeStep()) out.push_back(require_notice(call.db, syndicate, q->getColumn(0).getString(), "/fiscalYear"));
    return out;
}

// Posts a charge per instalment and unit; returns how many.
std::int64_t post_charges(const ToolCall& call, const Notice& n, const std::string& now) {
    auto& db = call.db;
    const auto& syndicate_id = call.caller.syndicate_id;
    struct Group {
        std::string due_on;
        std::vector<accounting::FundShare> funds;
    };
    std::map<std::pair<std::int64_t, std::string>, Group> groups;  // (number, unit)
    auto q = db.prepare(
        "SELECT number, unit_id, fund, due_on, amount_cents FROM assessment_notice_instalments WHERE notice_id = ? AND amount_cents > 0 "
        "ORDER BY number, unit_id, CASE fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END");
    bind_parameters(*q, n.id);
    while (q->executeStep()) {
        auto& g = groups[{q->getColumn(0).getInt64(), q->getColumn(1).getString()}];
        g.due_on = q->getColumn(3).getString();
        g.funds.push_back({q->getColumn(2).getString(), q->getColumn(4).getInt64()});
    }
    auto link = db.prepare("UPDATE assessment_notice_instalments SET charge_id = ? WHERE notice_id = ? AND number = ? AND unit_id = ?");
    const std::string kind = n.kind == "special" ? "special" : "contribution";
    for (const auto& [key, g] : groups) {
        accounting::ChargeDraft d;
        d.unit_id = key.second;
        d.kind = kind;
        d.description = (n.kind == "special" ? "Cotisation spéciale — avis " : "Cotisation " + std::to_string(n.fiscal_year) + " — avis ") + n.number +
                        ", versement " + std::to_string(key.first) + " — unité " + accounting::unit_number(db, key.second);
        d.posted_on = g.due_on;
        d.due_on = g.due_on;
        d.entry_source = "assessment";
        d.source_type = "assessment-notice";
        d.source_id = n.id;
        d.assessment_notice_id = n.id;
        d.funds = g.funds;
        const auto charge = accounting::create_charge(db, syndicate_id, d, now);
        call.name_event("charge.created", "charge", charge);
        link->reset();
        bind_parameters(*link, charge, n.id, key.first, key.second);
        link->exec();
    }
    return static_cast<std::int64_t>(groups.size());
}

// What a notice must still be on the day it is issued: its instalments not yet due (a co-owner is
// not in default for what no notice told them of), in an open fiscal year, and its lines what the
// budget's apportionment gives its lot's units today (fractions, lots and the budget unchanged
// since the draft). Refusals name the notice at `field`.
void require_issuable(Database& db, const std::string& syndicate_id, const Notice& n, const std::string& today, const std::string& field,
                      std::map<std::string, std::vector<funds::UnitShare>>& shares_of_budget) {
    auto dues = db.prepare("SELECT DISTINCT due_on FROM assessment_notice_instalments WHERE notice_id = ? ORDER BY due_on");
    bind_parameters(*dues, n.id);
    while (dues->executeStep()) {
        const auto due = dues->getColumn(0).getString();
        if (due < today)
            throw invalid_argument(field, "has an instalment already due",
                                   "Notice " + n.number + " has an instalment due on " + due + ", before today (" + today +
                                       "): a co-owner is not late for what no notice told them. Draft the notices again with a firstDueOn "
                                       "on or after today (generate_assessment_notices).");
        accounting::require_open_period(db, syndicate_id, due, field);
    }
    if (n.kind != "regular") return;
    auto b = db.prepare("SELECT budget_id FROM assessment_notices WHERE id = ?");
    bind_parameters(*b, n.id);
    b->executeStep();
    const auto budget_id = b->getColumn(0).getString();
    auto it = shares_of_budget.find(budget_id);
    if (it == shares_of_budget.end()) {
        const auto budget = funds::require_budget(db, syndicate_id, budget_id, field);
        it = shares_of_budget.emplace(budget_id, funds::apportion(db, syndicate_id, funds::pools_of(db, syndicate_id, budget), field)).first;
    }
    std::map<std::pair<std::string, std::string>, std::int64_t> now, drafted;  // (unit, fund) -> cents
    for (const auto& unit : accounting::lot_units(db, syndicate_id, n.unit_id))
        for (const auto& u : it->second)
            if (u.unit_id == unit)
                for (const auto& [fund, cents] : u.by_fund) now[{unit, fund}] = cents;
    auto lines = db.prepare("SELECT unit_id, fund, sum(amount_cents) FROM assessment_notice_lines WHERE notice_id = ? GROUP BY unit_id, fund");
    bind_parameters(*lines, n.id);
    while (lines->executeStep()) drafted[{lines->getColumn(0).getString(), lines->getColumn(1).getString()}] = lines->getColumn(2).getInt64();
    if (now != drafted)
        throw invalid_argument(field, "no longer matches the budget's shares",
                               "Notice " + n.number + " was drafted before the units' fractions, the lot or the budget changed: draft "
                               "the year's notices again (generate_assessment_notices), then issue them.");
}

// The lot's addressees as the register holds them now (co-owners come and go between the draft
// and the issue), written back to the notice with its language.
Notice refresh_addressees(Database& db, const std::string& syndicate_id, Notice n, const std::string& fallback) {
    n.addressees = addressees_of(db, syndicate_id, accounting::lot_units(db, syndicate_id, n.unit_id));
    n.language = n.addressees.empty() ? fallback : n.addressees[0]["language"].get<std::string>();
    auto q = db.prepare("UPDATE assessment_notices SET addressees = ?, language = ? WHERE id = ?");
    bind_parameters(*q, n.addressees.dump(), n.language, n.id);
    q->exec();
    return n;
}

}  // namespace

json issue_assessment_notices(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    auto notices = notices_to_issue(call, a);
    const auto now = call.clock.now();
    const auto today = montreal_date(now);
    std::map<std::string, std::vector<funds::UnitShare>> shares;
    for (std::size_t k = 0; k < notices.size(); ++k)
        require_issuable(call.db, syndicate, notices[k], today, a.given("ids") ? "/ids/" + std::to_string(k) : "/fiscalYear", shares);
    const auto now_text = to_utc_iso(now);
    const auto fallback = get_setting(call.db, syndicate, "defaultLanguage").get<std::string>();
    const auto name = syndicate_name(call.db, syndicate);
    std::int64_t charges = 0, queued = 0;
    json issued = json::array(), without_addressee = json::array(), without_email = json::array();
    for (std::size_t k = 0; k < notices.size(); ++k) {
        call.report_progress(static_cast<double>(k), static_cast<double>(notices.size()));
        const auto n = refresh_addressees(call.db, syndicate, notices[k], fallback);
        charges += post_charges(call, n, now_text);
        std::map<std::string, std::string> document_of;  // language -> document
        std::set<std::string> languages;
        for (const auto& ad : n.addressees) languages.insert(ad["language"].get<std::string>());
        if (languages.empty()) languages.insert(n.language.empty() ? fallback : n.language);
        for (const auto& language : languages) document_of[language] = file_notice_pdf(call.db, syndicate, n, language, now, call.caller.api_key_id);
        json documents = json::array();
        for (const auto& [_, id] : document_of) documents.push_back(id);
        auto mark = call.db.prepare(
            "UPDATE assessment_notices SET status = 'issued', issued_at = ?, document_ids = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*mark, now_text, documents.dump(), now_text, n.id);
        mark->exec();
        call.name_event("assessment_notice.issued", "assessment-notice", n.id);
        if (n.addressees.empty()) without_addressee.push_back({{"noticeId", n.id}, {"number", n.number}, {"unitNumber", accounting::unit_number(call.db, n.unit_id)}});
        for (const auto& ad : n.addressees) {
            const auto language = ad["language"].get<std::string>();
            if (queue_notice_mail(call.db, syndicate, {n, ad, language, document_of.at(language), name, false}, now_text))
                ++queued;
            else
                without_email.push_back({{"noticeId", n.id}, {"coOwnerId", ad["coOwnerId"]}, {"name", ad["name"]}});
        }
        issued.push_back({{"id", n.id}, {"number", n.number}, {"totalCents", n.total_cents}, {"documentIds", documents}});
    }
    call.report_progress(static_cast<double>(notices.size()), static_cast<double>(notices.size()));
    return {{"issued", issued.size()}, {"notices", std::move(issued)}, {"charges", charges},
            {"queued", queued}, {"withoutAddressee", std::move(without_addressee)}, {"withoutEmail", std::move(without_email)}};
}

}  // namespace syndic::assessment_notices
