// Following the work (catalogue §4.8 add_project_task, update_project_task, add_change_order,
// add_project_update): tasks, changes proposed to the contract, and progress, whose first report
// on an approved project with a contract starts it.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/list_query.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

void require_contractor(const ToolCall& call, const Arguments& a) {
    if (a.given("contractorId"))
        require_record_exists(call.db, call.caller.syndicate_id, "contractors", a.text("contractorId"), "/contractorId", RecordState::active);
}

void require_no_contract_missing(const Project& p, const std::string& what) {
    if (!p.contractor_id)
        throw DomainError("NO_CONTRACT", "The project " + p.number + " has no contract yet (award_project_contract): " + what + ".").at("/projectId");
}

}  // namespace

json add_project_task(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    if (a.given("assigneeDirectorId")) require_director(call, a.text("assigneeDirectorId"), "/assigneeDirectorId");
    require_contractor(call, a);
    require_status(p, {"proposed", "approved", "in-progress", "completed"}, "a closed or cancelled project takes no task", "/projectId");
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO project_tasks (id, syndicate_id, project_id, title, due_on, assignee_director_id, contractor_id, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, call.caller.syndicate_id, project_id, a.nonblank("title"), date_argument(a, "dueOn"), a.optional_text("assigneeDirectorId"),
                    a.optional_text("contractorId"), now, now);
    q->exec();
    call.name_event("project.task_changed", "project-task", id);
    return task_json(call.db, id);
}

json update_project_task(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto id = a.text("taskId");
    require_child(call, "project_tasks", id, project_id, "/taskId");
    if (a.given("assigneeDirectorId")) require_director(call, a.text("assigneeDirectorId"), "/assigneeDirectorId");
    require_contractor(call, a);
    require_status(p, {"proposed", "approved", "in-progress", "completed"}, "a closed or cancelled project's tasks no longer change", "/projectId");
    const auto before = task_json(call.db, id);
    const auto status = a.text_or("status", before["status"].get<std::string>());
    if (a.given("doneOn") && status != "done")
        throw invalid_argument("/doneOn", "is for a task done", "doneOn goes with status done.");
    std::optional<std::string> done_on;
    if (status == "done") done_on = a.given("doneOn") ? *date_argument(a, "doneOn") : before["doneOn"].is_string() ? before["doneOn"].get<std::string>() : today(call);
    if (done_on) require_not_future(call, *done_on, "/doneOn");
    auto q = call.db.prepare(
        "UPDATE project_tasks SET title = coalesce(?1, title), status = ?2, done_on = ?3, due_on = CASE WHEN ?4 THEN ?5 ELSE due_on END, "
        "assignee_director_id = CASE WHEN ?6 THEN ?7 ELSE assignee_director_id END, contractor_id = CASE WHEN ?8 THEN ?9 ELSE contractor_id END, "
        "updated_at = ?10 WHERE id = ?11");
    bind_parameters(*q, a.optional_nonblank("title"), status, done_on, a.has("dueOn") ? 1 : 0, date_argument(a, "dueOn"),
                    a.has("assigneeDirectorId") ? 1 : 0, a.optional_text("assigneeDirectorId"), a.has("contractorId") ? 1 : 0,
                    a.optional_text("contractorId"), to_utc_iso(call.clock.now()), id);
    q->exec();
    call.name_event("project.task_changed", "project-task", id);
    return task_json(call.db, id);
}

json add_change_order(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    require_status(p, {"approved", "in-progress", "completed"}, "a change order amends the contract of a project under way", "/projectId");
    require_no_contract_missing(p, "a change order amends the contract");
    auto n = call.db.prepare("SELECT count(*) FROM change_orders WHERE project_id = ?");
    bind_parameters(*n, project_id);
    n->executeStep();
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO change_orders (id, syndicate_id, project_id, number, description, amount_cents, reason, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, call.caller.syndicate_id, project_id, "CO-" + std::to_string(n->getColumn(0).getInt64() + 1), a.nonblank("description"),
                    a.integer("amountCents"), a.nonblank("reason"), now, now);
    q->exec();
    call.name_event("change_order.created", "change-order", id);
    return change_order_json(call.db, id);
}

json add_project_update(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto documents = a.texts("documentIds");
    require_records_exist(call.db, syndicate, "documents", documents, "/documentIds");
    require_status(p, {"approved", "in-progress"}, "progress is reported on works under way", "/projectId");
    if (p.status == "approved") require_no_contract_missing(p, "the works start under a contract");
    const auto day = *date_argument(a, "date");
    require_not_future(call, day, "/date");
    auto last = call.db.prepare("SELECT progress_percent FROM projects WHERE id = ?");
    bind_parameters(*last, project_id);
    last->executeStep();
    const auto before = last->getColumn(0).getInt64();
    const auto percent = a.integer("progressPercent");
    if (percent < before && !a.given("note"))
        throw invalid_argument("/note", "is required when progress goes down",
                               "Progress goes from " + std::to_string(before) + " % to " + std::to_string(percent) + " %: say why in a note.");
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO project_updates (id, syndicate_id, project_id, update_on, progress_percent, note, document_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, project_id, day, percent, a.optional_nonblank("note"), json(documents).dump(), now);
    q->exec();
    for (const auto& d : documents) documents::attach(call.db, syndicate, d, "project", project_id, now);
    auto u = call.db.prepare(
        "UPDATE projects SET progress_percent = ?1, status = 'in-progress', actual_start = coalesce(actual_start, ?2), updated_at = ?3 WHERE id = ?4");
    bind_parameters(*u, percent, day, now, project_id);
    u->exec();
    call.name_event("project.progress_updated", "project", project_id);
    return progress_json(call.db, id);
}

}  // namespace syndic::projects
