#include "modules/record_exists.hpp"

#include <stdexcept>

#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "tools/manifests.hpp"

namespace syndic {

DomainError record_not_found(std::string_view table, const std::string& id, const std::string& field, RecordState state) {
    const auto* declared = find_record_error(table);
    if (!declared) throw std::logic_error("no manifest declares the not-found code of the records of " + std::string(table));
    const auto& noun = state == RecordState::active && !declared->record_active_noun.empty() ? declared->record_active_noun
                                                                                              : declared->record_noun;
    return DomainError(declared->code, "No " + noun + " with id " + id + " in this syndicate.").at(field);
}

bool record_exists(Database& db, const std::string& syndicate_id, std::string_view table, const std::string& id,
                   RecordState state) {
    // The table is a name from the code, never from a caller; each (table, state) is one statement.
    auto q = db.prepare("SELECT 1 FROM " + std::string(table) + " WHERE id = ? AND syndicate_id = ?" +
                        (state == RecordState::active ? " AND deleted_at IS NULL" : ""));
    bind_parameters(*q, id, syndicate_id);
    return q->executeStep();
}

void require_record_exists(Database& db, const std::string& syndicate_id, std::string_view table, const std::string& id,
                           const std::string& field, RecordState state) {
    if (!record_exists(db, syndicate_id, table, id, state)) throw record_not_found(table, id, field, state);
}

void require_records_exist(Database& db, const std::string& syndicate_id, std::string_view table, const std::vector<std::string>& ids,
                           const std::string& field, RecordState state) {
    for (std::size_t i = 0; i < ids.size(); ++i) require_record_exists(db, syndicate_id, table, ids[i], field + "/" + std::to_string(i), state);
}

}  // namespace syndic
