#include "modules/meetings/written_signers.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "modules/accounting/standing.hpp"
#include "modules/governance/in_office.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

std::vector<Signer> entitled_signers(Database& db, const std::string& syndicate, const std::string& body,
                                     const std::string& day) {
    std::vector<Signer> out;
    if (body == "board") {
        for (auto& d : governance::directors_in_office(db, syndicate, day)) out.push_back({"director", std::move(d.id), std::move(d.name)});
        return out;
    }
    auto q = db.prepare(
        "SELECT id, first_name || ' ' || last_name FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL "
        "ORDER BY last_name, first_name, id");
    q->bind(1, syndicate);
    while (q->executeStep()) {
        Signer s{"co-owner", q->getColumn(0).getString(), q->getColumn(1).getString()};
        if (accounting::co_owner_standing(db, syndicate, s.id, day).entitled()) out.push_back(std::move(s));
    }
    return out;
}

SignerSet signer_set(Database& db, const std::string& syndicate, const std::string& resolution_id,
                     const std::string& body, const std::string& today) {
    SignerSet set;
    auto q = db.prepare("SELECT signer_type, signer_id, name FROM written_resolution_signers WHERE resolution_id = ? ORDER BY rowid");
    bind_parameters(*q, resolution_id);
    while (q->executeStep())
        set.signers.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString()});
    const auto now_entitled = entitled_signers(db, syndicate, body, today);
    set.fixed = !set.signers.empty();
    if (!set.fixed) {
        set.signers = now_entitled;
        return set;
    }
    for (const auto& s : set.signers)
        if (std::none_of(now_entitled.begin(), now_entitled.end(), [&](const Signer& e) { return e.id == s.id; }))
            set.left.push_back(s);
    return set;
}

void fix_signers(Database& db, const std::string& syndicate, const std::string& resolution_id,
                 const std::vector<Signer>& signers) {
    for (const auto& s : signers) {
        auto q = db.prepare(
            "INSERT INTO written_resolution_signers (resolution_id, syndicate_id, signer_type, signer_id, name) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
        bind_parameters(*q, resolution_id, syndicate, s.type, s.id, s.name);
        q->exec();
    }
}

}  // namespace syndic::meetings
