// Writing the events of catalogue section 6: one row of `events` per record a call changed (a
// bulk of 500 gives 500), in the call's own transaction, each with its envelope as every delivery
// will post it, and one pending delivery per active webhook subscribed to it. Knows storage and
// event names; not tools, not the wire, not how deliveries are sent.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

#include "storage/audit_trail.hpp"

namespace syndic {

class Database;

// An event a handler names for a record itself, when the record's change alone does not say
// which event it is (meeting.held rather than meeting.updated) or the call changed other rows
// (record_attendance changes attendees: the event is the meeting's).
struct NamedEvent {
    std::string type, record_type, record_id;
};

// The events of one call: for each record changed, the tool's declared event of that record's
// noun (the one of its action's verb when it declares several: created, updated, archived,
// restored, deleted), unless a named event covers the record; then the named events. A tool
// that queues messages declares message.queued (an outbox row is a message). `data` is the record as the call's result shows
// it (an object of that id in the result), else its stored columns. Returns the number written.
int write_call_events(Database& db, const AuditContext& context, const std::vector<std::string>& declared,
                      const std::vector<RecordChange>& changes, const std::vector<NamedEvent>& named,
                      const std::function<const nlohmann::json&()>& result);

// One event outside a tool call (the tick's derived events, a delivery's message.sent): its
// envelope written with `data_json` (a JSON object's text) and its deliveries queued. Returns the
// event's id.
std::string append_event(Database& db, const AuditContext& context, const std::string& syndicate_id,
                         const std::string& type, const std::string& record_type, const std::string& record_id,
                         const std::string& data_json);

}  // namespace syndic
