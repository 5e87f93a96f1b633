// The audit trail of changes made from the command line (keys, users, clients, quorum, water
// heater age, restore): the operating-system user who ran the command is the actor ("os:<login>",
// kind "system") and "cli:<command>" the tool. Knows the trail's storage, not CLI11 or tools.
#pragma once
#include <string>

#include "core/clock.hpp"
#include "storage/audit_trail.hpp"
#include "storage/database.hpp"

namespace syndic {

// "os:<login>" of the effective user (its uid when it has no name).
std::string os_actor_id();

// While alive, one write transaction recording every change on `db`; commit() writes their audit
// events (each in the trail of the syndicate whose row it is; an OAuth application's in every
// syndicate's) and commits both together. Gone without commit(): nothing is kept.
class CommandAudit {
public:
    CommandAudit(Database& db, std::string command);
    void commit(const Clock& clock);

private:
    WriteTransaction tx_;
    ChangeRecorder recorder_;
    std::string command_;
};

// After a restore: one "restore" event in each syndicate's trail of the restored database, naming
// the backup it came from and where the database it replaced was saved.
void audit_restore(const std::string& db_path, const std::string& backup, const std::string& saved_as, const Clock& clock);

}  // namespace syndic
