#include "app/cli_audit.hpp"

#include <pwd.h>
#include <unistd.h>

#include "core/json_writer.hpp"

namespace syndic {

std::string os_actor_id() {
    const uid_t uid = ::geteuid();
    struct passwd entry {};
    struct passwd* found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_name && *found->pw_name)
        return std::string("os:") + found->pw_name;
    return "os:uid-" + std::to_string(uid);
}

namespace {

AuditContext command_context(const std::string& command, const Clock& clock) {
    return {"", {"system", os_actor_id(), ""}, "cli:" + command, to_utc_iso(clock.now())};
}

}  // namespace

CommandAudit::CommandAudit(Database& db, std::string command) : tx_(db), recorder_(db), command_(std::move(command)) {}

void CommandAudit::commit(const Clock& clock) {
    recorder_.write_events(command_context(command_, clock));
    tx_.commit();
}

void audit_restore(const std::string& db_path, const std::string& backup, const std::string& saved_as, const Clock& clock) {
    auto db = Database::open(db_path);
    std::string changes;
    JsonWriter w(changes);
    w.begin_object();
    w.key("restoredFrom").begin_object().key("before").null().key("after").string(backup).end_object();
    if (!saved_as.empty()) w.key("replacedDatabaseSavedAs").begin_object().key("before").null().key("after").string(saved_as).end_object();
    w.end_object();
    const auto context = command_context("restore", clock);
    WriteTransaction tx(*db);
    auto q = db->prepare("SELECT id FROM syndicates ORDER BY id");
    while (q->executeStep()) append_audit_event(*db, context, q->getColumn(0).getString(), "database", db_path, "restore", changes);
    tx.commit();
}

}  // namespace syndic
