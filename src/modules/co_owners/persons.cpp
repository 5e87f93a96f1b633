// Persons of the register: the records joined by samePersonAs, as one key each (co_owners/persons.hpp).
#include "modules/co_owners/persons.hpp"

#include <SQLiteCpp/Statement.h>

#include "core/error.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::co_owners {

namespace {

// The root of `id` in a forest of parents, the path on the way pointed at it.
std::string root_of(std::map<std::string, std::string>& parent, const std::string& id) {
    std::string root = id;
    while (parent.at(root) != root) root = parent.at(root);
    for (std::string at = id; at != root;) {
        auto next = parent.at(at);
        parent[at] = root;
        at = std::move(next);
    }
    return root;
}

}  // namespace

Persons persons_of(Database& db, const std::string& syndicate_id) {
    std::map<std::string, std::string> parent;
    std::vector<std::pair<std::string, std::string>> links;
    auto q = db.prepare("SELECT id, same_person_as FROM co_owners WHERE syndicate_id = ? ORDER BY id");
    bind_parameters(*q, syndicate_id);
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        parent.emplace(id, id);
        if (!q->getColumn(1).isNull()) links.emplace_back(id, q->getColumn(1).getString());
    }
    Persons persons;
    for (const auto& [from, to] : links) {
        if (!parent.count(to)) continue;  // another syndicate's record never joins (refused when written)
        persons.any_linked = true;
        auto a = root_of(parent, from), b = root_of(parent, to);
        if (a == b) continue;
        if (b < a) std::swap(a, b);
        parent[b] = a;  // the smallest id of a person is its key
    }
    for (const auto& [id, _] : parent) persons.key_of[id] = root_of(parent, id);
    return persons;
}

std::vector<std::string> other_active_records(Database& db, const std::string& syndicate_id, const std::string& co_owner_id) {
    const auto persons = persons_of(db, syndicate_id);
    const auto self = persons.key_of.find(co_owner_id);
    std::vector<std::string> out;
    if (self == persons.key_of.end()) return out;
    auto q = db.prepare("SELECT id FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL AND id <> ? ORDER BY id");
    bind_parameters(*q, syndicate_id, co_owner_id);
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        if (persons.key_of.at(id) == self->second) out.push_back(id);
    }
    return out;
}

void check_same_person_as(Database& db, const std::string& syndicate_id, const std::optional<std::string>& same_person_as,
                          const std::string& self_id, const std::string& field) {
    if (!same_person_as) return;
    require_record_exists(db, syndicate_id, "co_owners", *same_person_as, field, RecordState::active);
    if (*same_person_as == self_id)
        throw invalid_argument(field, "names the record itself",
                               "samePersonAs names another co-owner record of the same person (one holding another "
                               "unit), not this one.");
}

}  // namespace syndic::co_owners
