// resend_assessment_notice (catalogue §4.5): an issued notice rendered again (in the language asked,
// else each addressee's), as it stands with what has been received of it, kept as another protected
// document, and queued by e-mail to its addressees, or to those named (an addressee, or a co-owner
// of its lot today: a buyer since the notice was issued).
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/assessment_notices/delivery.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

// The recipients: the notice's addressees, or those named among them and the lot's co-owners now.
json recipients_of(const ToolCall& call, const Arguments& a, const Notice& n) {
    if (!a.given("coOwnerIds")) return n.addressees;
    auto known = n.addressees;
    for (auto& now : addressees_of(call.db, call.caller.syndicate_id, accounting::lot_units(call.db, call.caller.syndicate_id, n.unit_id)))
        if (std::none_of(known.begin(), known.end(), [&](const json& k) { return k["coOwnerId"] == now["coOwnerId"]; }))
            known.push_back(std::move(now));
    json out = json::array();
    const auto ids = a.texts("coOwnerIds");
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto field = "/coOwnerIds/" + std::to_string(i);
        require_record_exists(call.db, call.caller.syndicate_id, "co_owners", ids[i], field);
        const auto it = std::find_if(known.begin(), known.end(), [&](const json& k) { return k["coOwnerId"] == ids[i]; });
        if (it == known.end())
            throw invalid_argument(field, "is not an addressee of the notice",
                                   "This co-owner is neither an addressee of notice " + n.number + " nor a co-owner of its lot today.");
        out.push_back(*it);
    }
    return out;
}

}  // namespace

json resend_assessment_notice(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto n = require_notice(call.db, syndicate, a.text("id"), "/id");
    if (n.status != "issued")
        throw DomainError(codes::invalid_status_transition, "The notice " + n.number + " is " + n.status + ": only an issued notice is sent again" +
                                                                (n.status == "draft" ? " (issue it with issue_assessment_notices)." : "."))
            .at("/id")
            .with("status", n.status);
    const auto recipients = recipients_of(call, a, n);
    const auto forced = a.optional_text("language");
    const auto now = call.clock.now();
    const auto now_text = to_utc_iso(now);
    const auto name = syndicate_name(call.db, syndicate);
    std::map<std::string, std::string> document_of;  // language -> the new PDF
    const auto document_in = [&](const std::string& language) {
        auto it = document_of.find(language);
        if (it == document_of.end()) it = document_of.emplace(language, file_notice_pdf(call.db, syndicate, n, language, now, call.caller.api_key_id)).first;
        return it->second;
    };
    if (recipients.empty()) document_in(forced.value_or(n.language));  // rendered again, for the board to hand over
    std::int64_t queued = 0;
    json without_email = json::array();
    for (const auto& ad : recipients) {
        const auto language = forced.value_or(ad["language"].get<std::string>());
        const auto document = document_in(language);
        if (queue_notice_mail(call.db, syndicate, {n, ad, language, document, name, true}, now_text))
            ++queued;
        else
            without_email.push_back({{"coOwnerId", ad["coOwnerId"]}, {"name", ad["name"]}});
    }
    json added = json::array();
    for (const auto& [_, id] : document_of) added.push_back(id);
    auto q = call.db.prepare(
        "UPDATE assessment_notices SET document_ids = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(document_ids) "
        "UNION ALL SELECT value FROM json_each(?))), updated_at = ? WHERE id = ?");
    bind_parameters(*q, added.dump(), now_text, n.id);
    q->exec();
    call.name_event("assessment_notice.resent", "assessment-notice", n.id);
    return {{"noticeId", n.id}, {"number", n.number}, {"documentIds", std::move(added)}, {"queued", queued},
            {"withoutEmail", std::move(without_email)}};
}

}  // namespace syndic::assessment_notices
