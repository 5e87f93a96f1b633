// cancel_assessment_notice (catalogue §4.5): a notice cancelled, draft or issued. An issued one's
// charges are cancelled by counter-entries dated today (or the day a charge was posted or paid when
// that comes later): what is unpaid is reversed, what was paid becomes the payer's credit, which
// meets the lot's other debts at once. The PDF stays, protected. Issued amounts never change:
// cancel, draft again, issue.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/accounting/cancellation.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

// The lots a cancellation may change: the notice's, and those whose payments paid its charges
// (a payment's credit given back pays that lot's other debts).
std::vector<std::string> lots_touched(Database& db, const std::string& syndicate_id, const Notice& n) {
    std::vector<std::string> lots{n.unit_id};
    auto q = db.prepare(
        "SELECT DISTINCT p.unit_id FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN charges c ON c.id = a.charge_id "
        "WHERE c.assessment_notice_id = ? AND p.status = 'posted' AND a.released_on IS NULL");
    bind_parameters(*q, n.id);
    std::vector<std::string> payers;
    while (q->executeStep()) payers.push_back(q->getColumn(0).getString());
    for (const auto& unit : payers) {
        auto root = accounting::lot_root(db, syndicate_id, unit);
        if (std::find(lots.begin(), lots.end(), root) == lots.end()) lots.push_back(std::move(root));
    }
    return lots;
}

}  // namespace

json cancel_assessment_notice(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto n = require_notice(call.db, syndicate, a.text("id"), "/id");
    const auto reason = a.nonblank("reason");
    if (n.status == "cancelled")
        throw DomainError(codes::invalid_status_transition, "The notice " + n.number + " is cancelled already.").at("/id").with("status", n.status);
    const auto day = today(call);
    const auto now = to_utc_iso(call.clock.now());
    const auto lots = lots_touched(call.db, syndicate, n);
    std::vector<accounting::Standing> before;
    for (const auto& lot : lots) before.push_back(accounting::lot_standing(call.db, syndicate, lot, day));
    accounting::Cancellation undone;
    if (n.status == "issued") {
        auto q = call.db.prepare("SELECT id FROM charges WHERE assessment_notice_id = ? AND syndicate_id = ? ORDER BY due_on, id");
        bind_parameters(*q, n.id, syndicate);
        std::vector<std::string> charges;
        while (q->executeStep()) charges.push_back(q->getColumn(0).getString());
        undone = accounting::cancel_charges(call.db, syndicate, charges, day, "Avis " + n.number + " annulé", "/id", now);
    }
    auto mark = call.db.prepare("UPDATE assessment_notices SET status = 'cancelled', cancel_reason = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*mark, reason, now, n.id);
    mark->exec();
    call.name_event("assessment_notice.cancelled", "assessment-notice", n.id);
    // A lot whose arrears the credit given back paid gets its vote back (art. 1094).
    json restored = json::array();
    std::optional<accounting::Standing> own_after;
    for (std::size_t i = 0; i < lots.size(); ++i) {
        const auto after = accounting::lot_standing(call.db, syndicate, lots[i], day);
        if (i == 0) own_after = after;
        if (!before[i].voting_suspended || after.voting_suspended) continue;
        call.name_event("unit.voting_restored", "unit", lots[i]);
        restored.push_back({{"unitId", lots[i]}, {"unitNumber", accounting::unit_number(call.db, lots[i])}});
    }
    auto out = notice_json(call.db, syndicate, n.id);
    out["cancellation"] = {{"chargesCancelled", undone.charge_ids.size()}, {"chargeIds", undone.charge_ids},
                           {"cancelledCents", undone.cancelled_cents}, {"interestCancelledCents", undone.interest_cents},
                           {"releasedToCreditCents", undone.released_cents},
                           {"unpaidReversedCents", undone.cancelled_cents + undone.interest_cents - undone.released_cents},
                           {"datedOn", undone.days}, {"votingRestored", std::move(restored)}};
    out["standingAfter"] = accounting::standing_json(*own_after);
    return out;
}

}  // namespace syndic::assessment_notices
