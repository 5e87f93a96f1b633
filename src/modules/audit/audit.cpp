#include "modules/audit/audit.hpp"

#include <nlohmann/json.hpp>

#include "modules/common.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

json list_audit_events(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    const auto record_id = a.optional_text("recordId");
    const auto record_type = a.optional_text("recordType");
    const auto tool = a.optional_text("tool");
    const auto actor_id = a.optional_text("actorId");
    const auto action = a.optional_text("action");
    const auto from = time_bound(a, "from", false);
    const auto to = time_bound(a, "to", true);

    // Only the filters given take part, so a record's events are read through their own index.
    std::string where = " FROM audit_events WHERE syndicate_id = ?1";
    if (record_id) where += " AND record_id = ?2";
    if (record_type) where += " AND record_type = ?3";
    if (tool) where += " AND tool = ?4";
    if (actor_id) where += " AND actor_id = ?5";
    if (action) where += " AND action = ?6";
    if (from) where += " AND occurred_at >= ?7";
    if (to) where += " AND occurred_at <= ?8";
    auto bind_filters = [&](SQLite::Statement& q) {
        q.bind(1, call.caller.syndicate_id);
        if (record_id) q.bind(2, *record_id);
        if (record_type) q.bind(3, *record_type);
        if (tool) q.bind(4, *tool);
        if (actor_id) q.bind(5, *actor_id);
        if (action) q.bind(6, *action);
        if (from) q.bind(7, *from);
        if (to) q.bind(8, *to);
    };
    json data = json::array();
    const auto total = read_page(
        call.db, "SELECT count(*)" + where,
        "SELECT seq, occurred_at, actor_kind, actor_id, client_id, tool, record_type, record_id, action, changes" +
            where + " ORDER BY seq DESC LIMIT ?100 OFFSET ?101",
        page, bind_filters, [&](SQLite::Statement& q) {
            data.push_back({{"sequence", q.getColumn(0).getInt64()},
                            {"occurredAt", shown_time(q.getColumn(1))},
                            {"actor",
                             {{"kind", q.getColumn(2).getString()},
                              {"id", q.getColumn(3).getString()},
                              {"clientId", nullable_text(q.getColumn(4))}}},
                            {"tool", q.getColumn(5).getString()},
                            {"recordType", q.getColumn(6).getString()},
                            {"recordId", q.getColumn(7).getString()},
                            {"action", q.getColumn(8).getString()},
                            {"changes", json::parse(q.getColumn(9).getString())}});
        });
    return page_envelope(std::move(data), page, total);
}

}  // namespace

void register_audit_module(ToolTable& table) { table.bind("list_audit_events", list_audit_events); }

}  // namespace syndic
