// list_assessment_notices and get_assessment_notice (catalogue §4.5): the notices by fiscal year,
// kind, unit and status, with what has been paid of them.
#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

json list_assessment_notices(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    // ?1 syndicate, ?2 year, ?3 kind, ?4 unit (of the lot), ?5 status, ?6 unpaid only.
    const std::string where =
        " FROM assessment_notices n WHERE n.syndicate_id = ?1 AND (?2 IS NULL OR n.fiscal_year = ?2) AND (?3 IS NULL OR n.kind = ?3) "
        "AND (?4 IS NULL OR n.unit_id = ?4 OR EXISTS (SELECT 1 FROM assessment_notice_lines l WHERE l.notice_id = n.id AND l.unit_id = ?4)) "
        "AND (?5 IS NULL OR n.status = ?5) AND (?6 IS NULL OR ?6 = 0 OR (n.status = 'issued' AND n.total_cents > coalesce(("
        "  SELECT sum(x.amount_cents) FROM payment_allocations x JOIN payments p ON p.id = x.payment_id JOIN charges c ON c.id = x.charge_id "
        "  WHERE c.assessment_notice_id = n.id AND p.status = 'posted' AND x.released_on IS NULL), 0)))";
    std::vector<std::string> ids;
    const auto unpaid = a.optional_flag("unpaid");
    const auto total = read_page(
        call.db, "SELECT count(*)" + where, "SELECT n.id" + where + " ORDER BY n.fiscal_year DESC, n.number LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) {
            bind_parameters(q, call.caller.syndicate_id, a.optional_integer("fiscalYear"), a.optional_text("kind"), a.optional_text("unitId"),
                            a.optional_text("status"), unpaid ? std::optional<std::int64_t>(*unpaid ? 1 : 0) : std::nullopt);
        },
        [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids) data.push_back(notice_json(call.db, call.caller.syndicate_id, id));
    return page_envelope(std::move(data), page, total);
}

json get_assessment_notice(const ToolCall& call) {
    const auto a = call.arguments();
    const auto n = require_notice(call.db, call.caller.syndicate_id, a.text("id"), "/id");
    return notice_json(call.db, call.caller.syndicate_id, n.id);
}

}  // namespace syndic::assessment_notices
