#include "delivery/claims.hpp"

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

std::string table_name(ClaimTable table) { return table == ClaimTable::outbox ? "outbox" : "webhook_deliveries"; }

}  // namespace

bool renew_claim(Database& db, ClaimTable table, const std::string& id, const std::string& worker, Instant now,
                 Instant until) {
    WriteTransaction tx(db);
    auto q = db.prepare("UPDATE " + table_name(table) +
                        " SET lease_until = ?1 WHERE id = ?2 AND lease_owner = ?3 AND lease_until > ?4");
    bind_parameters(*q, to_utc_iso(until), id, worker, to_utc_iso(now));
    const bool held = q->exec() == 1;
    tx.commit();
    return held;
}

int release_claims(Database& db, ClaimTable table, const std::string& worker) {
    WriteTransaction tx(db);
    auto q = db.prepare("UPDATE " + table_name(table) + " SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?1");
    bind_parameters(*q, worker);
    const int released = q->exec();
    tx.commit();
    return released;
}

}  // namespace syndic
