#include "modules/governance/in_office.hpp"

#include <SQLiteCpp/Statement.h>

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::governance {

namespace {

// Officers first (president, vice-presidents, secretary, treasurer), then by name.
constexpr const char* officers_first =
    "ORDER BY CASE d.role WHEN 'president' THEN 0 WHEN 'vice-president' THEN 1 WHEN 'secretary' THEN 2 "
    "WHEN 'treasurer' THEN 3 ELSE 4 END, d.name, d.id";

}  // namespace

std::vector<DirectorInOffice> directors_in_office(Database& db, const std::string& syndicate_id, const std::string& day) {
    auto q = db.prepare(
        std::string("SELECT d.id, coalesce(d.co_owner_id, ''), d.name, coalesce(d.email, c.email), c.language, d.role FROM directors d "
                    "LEFT JOIN co_owners c ON c.id = d.co_owner_id AND c.deleted_at IS NULL "
                    "WHERE d.syndicate_id = ?1 AND d.term_start <= ?2 AND (d.ended_on IS NULL OR d.ended_on > ?2) ") +
        officers_first);
    bind_parameters(*q, syndicate_id, day);
    std::vector<DirectorInOffice> out;
    while (q->executeStep()) {
        DirectorInOffice d{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                           std::nullopt, std::nullopt};
        if (!q->getColumn(3).isNull()) d.email = q->getColumn(3).getString();
        if (!q->getColumn(4).isNull()) d.language = q->getColumn(4).getString();
        d.role = q->getColumn(5).getString();
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<AppointedDirector> directors_appointed_at(Database& db, const std::string& syndicate_id,
                                                      const std::string& meeting_id) {
    auto q = db.prepare(std::string("SELECT d.resolution_id, d.name, d.role, d.term_start, d.term_end FROM directors d "
                                    "JOIN resolutions r ON r.id = d.resolution_id AND r.syndicate_id = d.syndicate_id "
                                    "WHERE d.syndicate_id = ?1 AND r.meeting_id = ?2 ") +
                        officers_first);
    bind_parameters(*q, syndicate_id, meeting_id);
    std::vector<AppointedDirector> out;
    while (q->executeStep()) {
        AppointedDirector d{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                            q->getColumn(3).getString(), std::nullopt};
        if (!q->getColumn(4).isNull()) d.term_end = q->getColumn(4).getString();
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace syndic::governance
