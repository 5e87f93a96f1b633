// Following a request (catalogue §4.9 update_request, add_request_comment, resolve_request): its
// states (open → acknowledged → in progress → resolved → closed; rejected from any open state, with
// a reply), replies queued to the requester in their language, and its resolution, which may record
// the work in the logbook in the same act (link L18).
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/maintenance.hpp"
#include "modules/outbox_queue.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "modules/requests/tools.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::requests {

using nlohmann::json;

namespace {

bool still_open(const std::string& status) { return status == "open" || status == "acknowledged" || status == "in-progress"; }

// Whether `to` follows `from` in a request's life (resolving is resolve_request's).
bool allowed(const std::string& from, const std::string& to) {
    if (to == "rejected") return still_open(from);
    if (to == "acknowledged") return from == "open";
    if (to == "in-progress") return from == "open" || from == "acknowledged";
    if (to == "closed") return from == "resolved";
    return false;
}

// Who writes a comment: the user, else the key.
std::string author_of(const ToolCall& call) {
    if (!call.caller.user_id.empty()) return "user:" + call.caller.user_id;
    if (!call.caller.api_key_id.empty()) return "api-key:" + call.caller.api_key_id;
    return "syndic-mcp";
}

// Adds a comment; a reply to the requester is queued to them. Returns what was queued.
json comment(const ToolCall& call, const std::string& request_id, const std::string& body, const std::string& visibility) {
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO request_comments (id, syndicate_id, request_id, author, body, visibility, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, call.caller.syndicate_id, request_id, author_of(call), body, visibility, now);
    q->exec();
    bool without_email = false;
    const int queued = visibility == "requester" ? tell_requester(call, request_id, "Réponse à votre demande", "Reply to your request", body, without_email) : 0;
    call.name_event("request.commented", "request", request_id);
    return {{"id", id}, {"requestId", request_id}, {"author", author_of(call)}, {"body", body}, {"visibility", visibility},
            {"createdAt", to_montreal_iso(call.clock.now())}, {"queued", queued}, {"withoutEmail", without_email}};
}

void require_director(const ToolCall& call, const std::string& id) {
    auto q = call.db.prepare("SELECT 1 FROM directors WHERE id = ? AND syndicate_id = ? AND status = 'active'");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep()) throw record_not_found("directors", id, "/assigneeDirectorId");
}

}  // namespace

int tell_requester(const ToolCall& call, const std::string& request_id, const std::string& subject_fr, const std::string& subject_en,
                   const std::string& body, bool& without_email) {
    auto q = call.db.prepare(
        "SELECT c.id, c.email, c.language, r.number FROM requests r LEFT JOIN co_owners c ON c.id = r.requester_co_owner_id WHERE r.id = ?");
    bind_parameters(*q, request_id);
    q->executeStep();
    if (q->getColumn(1).isNull()) {
        without_email = true;
        return 0;
    }
    const bool en = q->getColumn(2).getString() == "en";
    QueuedMessage m;
    m.co_owner_id = q->getColumn(0).getString();
    m.recipient = q->getColumn(1).getString();
    m.language = en ? "en" : "fr";
    m.subject = (en ? subject_en : subject_fr) + " " + q->getColumn(3).getString();
    m.body = body;
    m.related_type = "request";
    m.related_id = request_id;
    queue_outbox_message(call.db, call.caller.syndicate_id, m, to_utc_iso(call.clock.now()));
    return 1;
}

json update_request(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto before = request_json(call, id);
    if (a.given("assigneeDirectorId")) require_director(call, a.text("assigneeDirectorId"));
    if (a.given("contractorId")) require_record_exists(call.db, call.caller.syndicate_id, "contractors", a.text("contractorId"), "/contractorId", RecordState::active);
    const auto from = before["status"].get<std::string>();
    const auto status = a.text_or("status", from);
    if (status != from && !allowed(from, status))
        throw DomainError(codes::invalid_status_transition, "A request " + from + " cannot become " + status +
                                                                (status == "closed" ? ": it is closed once resolved (resolve_request)." : "."))
            .at("/status")
            .with("status", from);
    if (status == "rejected" && status != from && !a.given("comment"))
        throw DomainError("COMMENT_REQUIRED", "Rejecting a request tells the requester why: give comment.").at("/comment");
    auto due = before["dueOn"].get<std::string>();
    const auto priority = a.text_or("priority", before["priority"].get<std::string>());
    if (a.given("dueOn")) due = *date_argument(a, "dueOn");
    else if (priority != before["priority"].get<std::string>()) due = due_on(call, montreal_date(stored_instant(before["createdAt"].get<std::string>())), priority);
    auto q = call.db.prepare(
        "UPDATE requests SET status = ?1, priority = ?2, due_on = ?3, assignee_director_id = CASE WHEN ?4 THEN ?5 ELSE assignee_director_id END, "
        "contractor_id = CASE WHEN ?6 THEN ?7 ELSE contractor_id END, updated_at = ?8 WHERE id = ?9");
    bind_parameters(*q, status, priority, due, a.has("assigneeDirectorId") ? 1 : 0, a.optional_text("assigneeDirectorId"),
                    a.has("contractorId") ? 1 : 0, a.optional_text("contractorId"), to_utc_iso(call.clock.now()), id);
    q->exec();
    if (a.given("comment")) comment(call, id, a.nonblank("comment"), "requester");
    call.name_event("request.updated", "request", id);
    return request_json(call, id);
}

json add_request_comment(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("requestId");
    request_json(call, id, "/requestId");
    return comment(call, id, a.nonblank("body"), a.text("visibility"));
}

json resolve_request(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto before = request_json(call, id);
    if (a.given("projectId")) require_record_exists(call.db, call.caller.syndicate_id, "projects", a.text("projectId"), "/projectId");
    const auto from = before["status"].get<std::string>();
    if (!still_open(from))
        throw DomainError(codes::invalid_status_transition, "The request is " + from + ": only an open request is resolved.").at("/id").with("status", from);
    const bool renovation = before["category"] == "renovation-approval";
    if (renovation && !a.given("renovationDecision"))
        throw invalid_argument("/renovationDecision", "is required for a renovation approval",
                               "Say the board's decision on the works: renovationDecision approved or refused.");
    if (!renovation && a.given("renovationDecision"))
        throw invalid_argument("/renovationDecision", "is for a renovation approval", "Only a renovation-approval request has a decision.");
    std::optional<std::string> record;
    if (a.given("recordMaintenance")) record = logbook::record_work(call, a.object("recordMaintenance"), {id, std::nullopt});
    const auto resolution = a.nonblank("resolution");
    auto q = call.db.prepare(
        "UPDATE requests SET status = 'resolved', resolution = ?, renovation_decision = ?, resolved_on = ?, maintenance_record_id = coalesce(?, "
        "maintenance_record_id), project_id = coalesce(?, project_id), updated_at = ? WHERE id = ?");
    bind_parameters(*q, resolution, a.optional_text("renovationDecision"), today(call), record, a.optional_text("projectId"),
                    to_utc_iso(call.clock.now()), id);
    q->exec();
    bool without_email = false;
    const int queued = tell_requester(call, id, "Demande résolue", "Request resolved", resolution, without_email);
    call.name_event("request.resolved", "request", id);
    auto out = request_json(call, id);
    out["queued"] = queued;
    out["withoutEmail"] = without_email;
    return out;
}

}  // namespace syndic::requests
