#include "modules/governance/independence.hpp"

#include <cctype>

#include "core/text.hpp"
#include "modules/governance/in_office.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::governance {

namespace {

// A person's name compared: folded (case and accents aside), letters and digits only.
std::string name_key(const std::string& name) {
    std::string out;
    for (const char c : fold_for_search(name))
        if (std::isalnum(static_cast<unsigned char>(c))) out += c;
    return out;
}

}  // namespace

std::optional<std::string> preparer_conflict(Database& db, const std::string& syndicate_id, const std::string& name,
                                             const std::optional<std::string>& firm, const std::string& day) {
    const auto folded = name_key(name);
    const auto firm_key = firm ? name_key(*firm) : std::string();
    for (const auto& d : directors_in_office(db, syndicate_id, day))
        if (name_key(d.name) == folded) return "a director in office";
    auto m = db.prepare(
        "SELECT manager_name, firm FROM management_mandates WHERE syndicate_id = ?1 AND start_on <= ?2 AND (end_on IS NULL OR end_on >= ?2)");
    bind_parameters(*m, syndicate_id, day);
    while (m->executeStep()) {
        if (name_key(m->getColumn(0).getString()) == folded) return "the syndicate's manager";
        const auto manager_firm = m->getColumn(1).isNull() ? std::string() : name_key(m->getColumn(1).getString());
        if (!firm_key.empty() && (manager_firm == firm_key || name_key(m->getColumn(0).getString()) == firm_key))
            return "of the manager's firm";
    }
    auto c = db.prepare("SELECT first_name || ' ' || last_name FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*c, syndicate_id);
    while (c->executeStep())
        if (name_key(c->getColumn(0).getString()) == folded) return "a co-owner";
    return std::nullopt;
}

}  // namespace syndic::governance
