#include "modules/meetings/notice_package.hpp"

#include <SQLiteCpp/Statement.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "core/clock.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

const std::vector<PackageItem>& package_items() {
    static const std::vector<PackageItem> items = {
        {"financial-statements", {"financial-statements"}, true},
        {"budget", {"budget"}, true},
        {"declaration-amendments", {"declaration"}, false},
        {"contracts-and-works", {"contract", "quote"}, false},
    };
    return items;
}

namespace {

const PackageItem* item_of_kind(const std::string& kind) {
    for (const auto& item : package_items())
        if (std::find(item.kinds.begin(), item.kinds.end(), kind) != item.kinds.end()) return &item;
    return nullptr;
}

}  // namespace

std::string sent_ids_json(const NoticePackage& package) {
    auto ids = nlohmann::json::array();
    for (const auto& d : package.sent) ids.push_back(d.document_id);
    return ids.dump();
}

std::vector<std::string> annual_meetings_to_call(Database& db, const std::string& syndicate_id, const std::string& after) {
    auto q = db.prepare(
        "SELECT id FROM meetings WHERE syndicate_id = ? AND type = 'aga' AND status = 'draft' AND scheduled_at >= ? ORDER BY scheduled_at, id");
    const auto next_day = montreal_day_start(after, 1);  // the first instant after the Montreal day `after`
    bind_parameters(*q, syndicate_id, next_day ? to_utc_iso(*next_day) : after);
    std::vector<std::string> out;
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

NoticePackage notice_package(Database& db, const std::string& syndicate_id, const std::string& meeting_id) {
    // The documents attached to the meeting or to a meeting it reconvenes (the chain of
    // adjournments back to the first), once each, in the order they were first attached;
    // generated minutes are a meeting's record, not its package.
    auto q = db.prepare(
        "WITH RECURSIVE chain(id) AS (SELECT ?2 UNION SELECT m.adjourned_from_meeting_id FROM meetings m JOIN chain "
        "ON m.id = chain.id WHERE m.adjourned_from_meeting_id IS NOT NULL AND m.syndicate_id = ?1) "
        "SELECT d.id, d.title, d.kind, d.visibility FROM document_links l JOIN documents d ON d.id = l.document_id "
        "WHERE l.syndicate_id = ?1 AND l.record_type = 'meeting' AND l.record_id IN (SELECT id FROM chain) "
        "AND l.deleted_at IS NULL AND d.deleted_at IS NULL AND d.draft = 0 "
        "GROUP BY d.id ORDER BY min(l.created_at), d.id");
    bind_parameters(*q, syndicate_id, meeting_id);
    NoticePackage out;
    while (q->executeStep()) {
        const auto* item = item_of_kind(q->getColumn(2).getString());
        if (!item) continue;
        PackageDocument d{q->getColumn(0).getString(), q->getColumn(1).getString(), item->key};
        (q->getColumn(3).getString() == "co-owners" ? out.sent : out.withheld).push_back(std::move(d));
    }
    // Each item's documents together, in the law's order.
    const auto rank = [](const PackageDocument& d) {
        const auto& items = package_items();
        for (std::size_t i = 0; i < items.size(); ++i)
            if (d.item == items[i].key) return i;
        return items.size();
    };
    const auto by_item = [&](const PackageDocument& a, const PackageDocument& b) { return rank(a) < rank(b); };
    std::stable_sort(out.sent.begin(), out.sent.end(), by_item);
    std::stable_sort(out.withheld.begin(), out.withheld.end(), by_item);
    for (const auto& item : package_items()) {
        if (!item.always) continue;
        const bool present = std::any_of(out.sent.begin(), out.sent.end(), [&](const auto& d) { return d.item == item.key; });
        if (!present) out.missing.emplace_back(item.key);
    }
    return out;
}

}  // namespace syndic::meetings
