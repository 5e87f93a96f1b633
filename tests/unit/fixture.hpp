// What every module test shares: a fresh in-memory database with migrations applied, a fixed
// clock, the real registry (with every result checked against its outputSchema), and callers
// for one or two syndicates. Calls go through the registry, as a client's would.
#pragma once
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <variant>
#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "delivery/webhook_address.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"
#include "tools/wire_error.hpp"

namespace syndic::test {

using nlohmann::json;

inline Instant fixed_now() {
    return *parse_iso_instant("2026-11-21T15:00:00Z");
}

// Webhooks to this machine allowed, as an operator allows them for development
// (--allow-loopback-webhooks), while the guard lives: for tests whose receiver is 127.0.0.1.
using LoopbackWebhooksAllowed = LoopbackWebhooksWhileSeeding;

struct Fixture {
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{fixed_now()};
    ToolRegistry registry{all_tool_handlers()};
    std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    std::string other_syndicate = create_syndicate(*db, clock, "Syndicat B", false);
    CallerContext admin{syndicate, "key-admin", {"*"}, Role::admin};
    CallerContext member{syndicate, "key-member", {"*"}, Role::member};
    CallerContext other_admin{other_syndicate, "key-other", {"*"}, Role::admin};

    Fixture() { registry.set_check_outputs(true); }

    json call(const std::string& tool, const json& args = json::object()) { return call_as(admin, tool, args); }
    json call_as(const CallerContext& who, const std::string& tool, const json& args = json::object()) {
        return registry.call(tool, args, who, *db, clock);
    }

    // The DomainError a call throws (fails the test when it succeeds).
    DomainError error(const std::string& tool, const json& args = json::object()) { return error_as(admin, tool, args); }
    DomainError error_as(const CallerContext& who, const std::string& tool, const json& args = json::object()) {
        try {
            registry.call(tool, args, who, *db, clock);
        } catch (const DomainError& e) {
            return e;
        }
        FAIL("expected " << tool << " to be refused");
        return DomainError("", "");
    }

    // A snapshot of every business table, to prove a refused call changed nothing.
    std::string snapshot() {
        std::string out;
        // Every table of the schema, so a new module's tables are in the snapshot with no change here.
        std::vector<std::string> tables;
        {
            SQLite::Statement names(db->sql(),
                                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                    "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name");  // FTS5's own tables are in
            while (names.executeStep()) tables.push_back(names.getColumn(0).getString());
        }
        for (const auto& table : tables) {
            SQLite::Statement q(db->sql(), "SELECT * FROM \"" + table + "\" ORDER BY 1");
            const int n = q.getColumnCount();
            while (q.executeStep()) {
                for (int i = 0; i < n; ++i) out += (q.getColumn(i).isNull() ? "<null>" : q.getColumn(i).getString()) + "|";
                out += "\n";
            }
            out += "--\n";
        }
        return out;
    }

    // A unit with sensible defaults; `extra` adds or overrides fields.
    json unit(const std::string& number, double fraction = 0, const std::string& type = "apartment",
              json extra = json::object()) {
        json args = {{"number", number}, {"type", type}, {"fractionPercent", fraction}};
        args.update(extra);
        return call("create_unit", args);
    }
    // A document of `syndicate_id` (what generate_minutes stores) with this id, without a file.
    void add_document(const std::string& syndicate_id, const std::string& id) {
        SQLite::Statement q(db->sql(),
                            "INSERT INTO documents (id, syndicate_id, kind, draft, language, path, pages, size_bytes, "
                            "sha256, created_at) VALUES (?, ?, 'invoice', 0, 'fr', '/tmp/none.pdf', 1, 1, 'x', "
                            "'2026-11-21T15:00:00.000Z')");
        q.bind(1, id);
        q.bind(2, syndicate_id);
        q.exec();
    }
    json co_owner(const std::string& unit_id, const std::string& first, const std::string& last,
                  json extra = json::object()) {
        json args = {{"unitId", unit_id}, {"firstName", first}, {"lastName", last}};
        args.update(extra);
        return call("create_co_owner", args);
    }
};

// Asserts the code of a call refused to `who` and that it changed nothing in the database.
#define CHECK_REFUSED_AS(fx, who, code_, tool, args)                  \
    do {                                                             \
        const auto before_ = (fx).snapshot();                        \
        const auto err_ = (fx).error_as((who), (tool), (args));      \
        CHECK(err_.code() == std::string(code_));                    \
        CHECK((fx).snapshot() == before_);                           \
    } while (0)
// The same for the fixture's admin.
#define CHECK_REFUSED(fx, code_, tool, args) CHECK_REFUSED_AS(fx, (fx).admin, code_, tool, args)

// Whether a refusal names `field`: as its field, or among its schema errors.
inline bool has_error_on(const DomainError& e, const std::string& field) {
    if (e.field() == field) return true;
    for (const auto& f : e.errors())
        if (f.field == field) return true;
    return false;
}

inline Instant at(const std::string& iso) { return *parse_iso_instant(iso); }

// The record with this id in a list's page, or null.
inline json record_with_id(const json& list, const json& id) {
    for (const auto& r : list.at("data"))
        if (r.at("id") == id) return r;
    return nullptr;
}

// A numeric figure of a refusal's data (decisions 3: currentSum, resultingSum...), if present.
// A text figure of a refusal's data ("" when there is none).
inline std::string text_of(const DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return "";
}
inline std::optional<double> figure(const DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures()) {
        if (k != key) continue;
        return std::visit(
            [](const auto& x) -> std::optional<double> {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) return std::nullopt;
                else return static_cast<double>(x);
            },
            v);
    }
    return std::nullopt;
}

}  // namespace syndic::test
