// What the board's tools share: the declaration's board parameters, directors as the tools show
// them (with their art. 1086 flags, asked of the accounts, and their art. 339 term), the checks on offices and on
// the records a call names, and day arithmetic.
#include <SQLiteCpp/Statement.h>

#include <chrono>
#include <cstdio>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/board/codes.hpp"
#include "modules/board/tools.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::board {

using nlohmann::json;

namespace {

constexpr const char* director_columns =
    "id, co_owner_id, name, email, phone, role, appointed_by, resolution_id, term_start, term_end, status, ended_on, "
    "end_reason, end_resolution_id, end_document_id, created_at, updated_at";

}  // namespace

json director_json(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& as_of) {
    auto q = db.prepare(std::string("SELECT ") + director_columns + " FROM directors WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return nullptr;
    json d = {{"id", q->getColumn(0).getString()},
              {"coOwnerId", nullable_text(q->getColumn(1))},
              {"name", q->getColumn(2).getString()},
              {"email", nullable_text(q->getColumn(3))},
              {"phone", nullable_text(q->getColumn(4))},
              {"role", q->getColumn(5).getString()},
              {"appointedBy", q->getColumn(6).getString()},
              {"resolutionId", nullable_text(q->getColumn(7))},
              {"termStart", q->getColumn(8).getString()},
              {"termEnd", nullable_text(q->getColumn(9))},
              {"status", q->getColumn(10).getString()},
              {"endedOn", nullable_text(q->getColumn(11))},
              {"endReason", nullable_text(q->getColumn(12))},
              {"endResolutionId", nullable_text(q->getColumn(13))},
              {"endDocumentId", nullable_text(q->getColumn(14))},
              {"inArrears", false},
              {"arrearsSince", nullptr},
              {"replaceable", false},
              {"termExpired", false},
              {"createdAt", shown_time(q->getColumn(15))},
              {"updatedAt", shown_time(q->getColumn(16))}};
    if (d["status"] != "active") return d;
    // Art. 339: past its term, a director stays in office until replaced.
    d["termExpired"] = d["termEnd"].is_string() && d["termEnd"].get<std::string>() < as_of;
    // Art. 1086: a co-owner who neglects to pay may be replaced. An outside director has no unit.
    if (!q->getColumn(1).isNull()) {
        const auto flags = co_owner_arrears(db, syndicate_id, q->getColumn(1).getString(), as_of);
        d["inArrears"] = flags.in_arrears;
        d["arrearsSince"] = flags.arrears_since ? json(*flags.arrears_since) : json(nullptr);
        d["replaceable"] = flags.replaceable();
    }
    return d;
}

std::string require_director(Database& db, const std::string& syndicate_id, const std::string& id,
                             const std::string& field) {
    auto q = db.prepare("SELECT status FROM directors WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("directors", id, field);
    return q->getColumn(0).getString();
}

std::int64_t active_director_count(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT count(*) FROM directors WHERE syndicate_id = ? AND status = 'active'");
    q->bind(1, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

void check_single_office(Database& db, const std::string& syndicate_id, const std::string& role,
                         const std::string& except_id, const std::string& field) {
    if (role != "president" && role != "secretary" && role != "treasurer") return;
    auto q = db.prepare(
        "SELECT id, name FROM directors WHERE syndicate_id = ? AND status = 'active' AND role = ? AND id <> ?");
    bind_parameters(*q, syndicate_id, role, except_id);
    if (!q->executeStep()) return;
    throw DomainError(codes::duplicate_officer,
                      q->getColumn(1).getString() + " is already the board's " + role +
                          "; change that director's office first (one " + role + " at a time).")
        .at(field)
        .with("role", role)
        .with("directorId", q->getColumn(0).getString());
}

void require_document(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    documents::require_document(db, syndicate_id, id, field, false);
}

}  // namespace syndic::board
