#include "events/event_log.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/clock.hpp"
#include "core/ids.hpp"
#include "events/event_types.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

using nlohmann::json;

const char* verb_of(const std::string& action) {
    if (action == "create") return "created";
    if (action == "update") return "updated";
    if (action == "archive") return "archived";
    if (action == "restore") return "restored";
    return "deleted";
}

// "co-owner" → "co_owner": a record type as the nouns of event names spell it. A row of the outbox
// is a message (message.queued, message.sent).
std::string noun_of(std::string record_type) {
    if (record_type == "outbox") return "message";
    std::replace(record_type.begin(), record_type.end(), '-', '_');
    return record_type;
}

// The event a tool declares for this change, "" when none.
std::string derived_type(const std::vector<std::string>& declared, const RecordChange& change) {
    const auto noun = noun_of(change.record_type);
    std::vector<const std::string*> candidates;
    for (const auto& type : declared)
        if (event_noun(type) == noun) candidates.push_back(&type);
    if (candidates.size() == 1) return *candidates.front();
    const auto wanted = noun + "." + verb_of(change.action);
    for (const auto* type : candidates)
        if (*type == wanted) return wanted;
    return "";
}

// The objects of the result that are whole records (an id and their times: a bulk's {index, id}
// is not), by id, searched two levels down; the first one met in document order wins. Built once
// per call: a bulk of 500 looked each record up in the whole result (a quadratic walk).
void index_shown_records(const json& value, std::unordered_map<std::string, const json*>& out, int depth = 0) {
    if (value.is_object()) {
        if (const auto it = value.find("id"); it != value.end() && it->is_string() &&
                                               (value.contains("createdAt") || value.contains("updatedAt") ||
                                                value.contains("queuedAt")))
            out.emplace(it->get<std::string>(), &value);
        if (depth < 2)
            for (const auto& [key, member] : value.items()) index_shown_records(member, out, depth + 1);
    } else if (value.is_array() && depth < 2) {
        for (const auto& item : value) index_shown_records(item, out, depth + 1);
    }
}

struct Subscriber {
    std::string id;
    std::vector<std::string> events;
};

class EventWriter {
public:
    EventWriter(Database& db, const AuditContext& context) : db_(db), context_(context) {
        if (const auto at = parse_iso_instant(context.occurred_at)) occurred_shown_ = to_montreal_iso(*at);
        else occurred_shown_ = context.occurred_at;
    }

    std::string write(const std::string& syndicate_id, const std::string& type, const std::string& record_type,
                      const std::string& record_id, const json& data, const std::string* changes) {
        const auto id = new_record_id();
        json envelope = {{"id", id},
                         {"type", type},
                         {"apiVersion", event_api_version()},
                         {"occurredAt", occurred_shown_},
                         {"syndicateId", syndicate_id},
                         {"actor", {{"kind", context_.actor.kind}, {"id", context_.actor.id}}},
                         {"tool", context_.tool},
                         {"recordType", record_type},
                         {"recordId", record_id},
                         {"data", data}};
        if (!context_.actor.client_id.empty()) envelope["actor"]["clientId"] = context_.actor.client_id;
        if (changes && type.ends_with(".updated")) envelope["changes"] = json::parse(*changes);

        auto q = db_.prepare(
            "INSERT INTO events (id, syndicate_id, type, record_type, record_id, occurred_at, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)");
        q->bind(1, id);
        q->bind(2, syndicate_id);
        q->bind(3, type);
        q->bind(4, record_type);
        q->bind(5, record_id);
        q->bind(6, context_.occurred_at);
        q->bind(7, envelope.dump());
        q->exec();
        const auto seq = db_.sql().getLastInsertRowid();

        for (const auto& webhook : subscribers(syndicate_id)) {
            if (!subscription_matches(webhook.events, type)) continue;
            auto d = db_.prepare(
                "INSERT INTO webhook_deliveries (id, syndicate_id, webhook_id, event_seq, event_id, event_type, record_key, "
                "next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?8, ?8, ?8)");
            d->bind(1, new_record_id());
            d->bind(2, syndicate_id);
            d->bind(3, webhook.id);
            d->bind(4, static_cast<std::int64_t>(seq));
            d->bind(5, id);
            d->bind(6, type);
            d->bind(7, record_type + "/" + record_id);
            d->bind(8, context_.occurred_at);
            d->exec();
        }
        return id;
    }

private:
    const std::vector<Subscriber>& subscribers(const std::string& syndicate_id) {
        auto it = webhooks_.find(syndicate_id);
        if (it != webhooks_.end()) return it->second;
        std::vector<Subscriber> found;
        auto q = db_.prepare(
            "SELECT id, events FROM webhooks WHERE syndicate_id = ? AND active = 1 AND deleted_at IS NULL ORDER BY id");
        q->bind(1, syndicate_id);
        while (q->executeStep())
            found.push_back({q->getColumn(0).getString(), json::parse(q->getColumn(1).getString()).get<std::vector<std::string>>()});
        return webhooks_.emplace(syndicate_id, std::move(found)).first->second;
    }

    Database& db_;
    const AuditContext& context_;
    std::string occurred_shown_;
    std::map<std::string, std::vector<Subscriber>> webhooks_;
};

}  // namespace

int write_call_events(Database& db, const AuditContext& context, const std::vector<std::string>& declared,
                      const std::vector<RecordChange>& changes, const std::vector<NamedEvent>& named,
                      const std::function<const json&()>& result) {
    EventWriter writer(db, context);
    int written = 0;
    auto covered = [&](const RecordChange& c) {
        return std::any_of(named.begin(), named.end(), [&](const NamedEvent& n) {
            return n.record_type == c.record_type && n.record_id == c.record_id;
        });
    };
    std::optional<std::unordered_map<std::string, const json*>> shown;
    auto data_of = [&](const std::string& record_id, const RecordChange* change) -> json {
        if (!shown) index_shown_records(result(), shown.emplace());
        if (const auto it = shown->find(record_id); it != shown->end()) return *it->second;
        if (change) return json::parse(change->row);
        return result().is_object() ? result() : json::object();
    };
    for (const auto& change : changes) {
        if (covered(change)) continue;
        const auto type = derived_type(declared, change);
        if (type.empty()) continue;
        writer.write(change.syndicate_id, type, change.record_type, change.record_id, data_of(change.record_id, &change),
                     &change.changes);
        ++written;
    }
    for (const auto& event : named) {
        const RecordChange* change = nullptr;
        for (const auto& c : changes)
            if (c.record_type == event.record_type && c.record_id == event.record_id) change = &c;
        const auto syndicate = change ? change->syndicate_id : context.syndicate_id;
        writer.write(syndicate, event.type, event.record_type, event.record_id, data_of(event.record_id, change),
                     change ? &change->changes : nullptr);
        ++written;
    }
    return written;
}

std::string append_event(Database& db, const AuditContext& context, const std::string& syndicate_id,
                         const std::string& type, const std::string& record_type, const std::string& record_id,
                         const std::string& data_json) {
    EventWriter writer(db, context);
    return writer.write(syndicate_id, type, record_type, record_id, json::parse(data_json), nullptr);
}

}  // namespace syndic
