// What the board's tools share: the declaration's board parameters, directors as the tools show
// them (with their standing under art. 1086, asked of the accounts), the checks on offices and on
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

std::optional<std::string> overdue_since(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                                         const std::string& as_of) {
    const auto standing = accounting::co_owner_standing(db, syndicate_id, co_owner_id, as_of);
    if (standing.entitled()) return std::nullopt;
    return standing.overdue_since.value_or(as_of);
}

std::string disqualified_from(const std::string& due) {
    int y = 0;
    unsigned m = 0, d = 0;
    if (std::sscanf(due.c_str(), "%d-%u-%u", &y, &m, &d) != 3) return due;
    using namespace std::chrono;
    const year_month_day start{year{y}, month{m}, day{d}};
    year_month_day later = start + months{3};
    if (!later.ok()) later = year_month_day{later.year() / later.month() / last};  // 30 November, not 31
    return add_calendar_days(
        [&] {
            char out[16];
            std::snprintf(out, sizeof out, "%04d-%02u-%02u", static_cast<int>(later.year()),
                          static_cast<unsigned>(later.month()), static_cast<unsigned>(later.day()));
            return std::string(out);
        }(),
        1);
}

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
              {"disqualified", false},
              {"disqualifiedSince", nullptr},
              {"createdAt", shown_time(q->getColumn(15))},
              {"updatedAt", shown_time(q->getColumn(16))}};
    // Art. 1086: a co-owner in arrears of more than 3 months. An outside director has no unit.
    if (!q->getColumn(1).isNull() && d["status"] == "active")
        if (const auto due = overdue_since(db, syndicate_id, q->getColumn(1).getString(), as_of)) {
            d["disqualified"] = true;
            d["disqualifiedSince"] = disqualified_from(*due);
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
