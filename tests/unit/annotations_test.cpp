// Every tool's annotations as the MCP specification defines each hint (issue 27, item 3):
// readOnlyHint, the tool changes nothing; destructiveHint (for a write), it may change or remove
// what is recorded, where false means it only adds (a record, a link, a signature, a message);
// idempotentHint (for a write), calling it again with the same arguments has no further effect on
// the register (no new record, version or message); openWorldHint, it reaches people or systems
// outside the service (e-mail queued to co-owners or directors, a webhook's POST). The rules go by
// the tool name's verb, and a tool whose behaviour differs from its verb says why; a new tool with
// a verb no rule knows fails until it is classified. Had 41 writes saying destructiveHint false,
// mail-sending tools not openWorldHint, and set_bylaw idempotent (a retry made a third version).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "modules/modules.hpp"
#include "tools/registry.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace annotations_test {

using namespace syndic;
using nlohmann::json;

namespace {

struct Hints {
    bool read_only, destructive, idempotent, open_world;
    bool operator==(const Hints&) const = default;
};

std::string shown(const Hints& h) {
    return std::string("readOnly ") + (h.read_only ? "T" : "F") + ", destructive " + (h.destructive ? "T" : "F") +
           ", idempotent " + (h.idempotent ? "T" : "F") + ", openWorld " + (h.open_world ? "T" : "F");
}

// By the verb that begins the tool's name.
const std::map<std::string, Hints> by_verb = {
    // Reads: change nothing.
    {"list", {true, false, true, false}},
    {"get", {true, false, true, false}},
    {"calculate", {true, false, true, false}},
    // Additions: a new record (a meeting, a co-owner, a document, a resolution, a director, a PDF...);
    // again, another one.
    {"create", {false, false, false, false}},
    {"bulk", {false, false, false, false}},
    {"add", {false, false, false, false}},
    {"attach", {false, false, false, false}},
    {"appoint", {false, false, false, false}},
    {"generate", {false, false, false, false}},
    // Changes of what is recorded: fields overwritten, a status moved, a record archived, deleted,
    // revoked, restored, a mandate ended, fractions scaled; again with the same arguments, nothing
    // more (the state is already so, or the call is refused).
    {"update", {false, true, true, false}},
    {"set", {false, true, true, false}},
    {"record", {false, true, true, false}},
    {"delete", {false, true, true, false}},
    {"archive", {false, true, true, false}},
    {"revoke", {false, true, true, false}},
    {"restore", {false, true, true, false}},
    {"end", {false, true, true, false}},
    {"rebalance", {false, true, true, false}},
    // A payment undone by counter-entries: again, refused (ALREADY_REVERSED).
    {"reverse", {false, true, true, false}},
    // Charges what is due up to a date (late interest): again for the same date, nothing more.
    {"apply", {false, false, true, false}},
    // A budget adopted: its status moves; again, refused (BUDGET_LOCKED).
    {"adopt", {false, true, true, false}},
    // A new authorisation each call (to use a fund).
    {"authorize", {false, false, false, false}},
    // Notices issued: charges posted, PDFs filed, mail queued; again, refused (only drafts are issued).
    {"issue", {false, true, true, true}},
    // A bank account reconciled to a statement's day: again for that day, refused (not after the last).
    {"reconcile", {false, true, true, false}},
    // A fiscal year closed and locked: again, refused (ALREADY_CLOSED).
    {"close", {false, true, true, false}},
    // A notice cancelled by counter-entries: again, refused (INVALID_STATUS_TRANSITION).
    {"cancel", {false, true, true, false}},
    // A notice rendered and queued again: another PDF and more mail each call.
    {"resend", {false, true, false, true}},
    // Sending: the meeting moves on (notice-sent, minutes-sent) and mail is queued to everyone;
    // again, refused or sent again.
    {"send", {false, true, false, true}},
    {"adjourn", {false, true, false, false}},
    // A project moves on (approved, awarded, accepted) or a change order is decided; again, refused.
    {"approve", {false, true, true, false}},
    {"award", {false, true, true, false}},
    {"complete", {false, true, true, false}},
    {"decide", {false, true, true, false}},
    {"redeliver", {false, true, true, true}},
};

struct Exception {
    Hints hints;
    const char* reason;
};

// Where a tool's behaviour differs from its verb's rule.
const std::map<std::string, Exception> by_tool = {
    {"attach_document",
     {{false, false, true, false}, "the same file attached to the same record again is the same document and link (reused)"}},
    {"add_agenda_item", {{false, false, false, true}, "queues a supplementary notice to every co-owner (art. 1088)"}},
    {"record_interest_disclosure", {{false, false, false, false}, "adds a declaration of interest; nothing recorded changes"}},
    {"generate_assessment_notices", {{false, true, true, false}, "replaces the fiscal year's drafts: again, the same drafts"}},
    {"record_fund_study", {{false, false, false, false}, "each call records another study; none recorded changes"}},
    {"record_payment", {{false, false, false, false}, "each call records another payment; a posted payment is never re-imputed (art. 1571)"}},
    {"record_journal_entry", {{false, false, false, false}, "each call posts another entry; nothing posted changes (a correction is another entry)"}},
    {"record_declaration_amendment",
     {{false, true, false, false}, "each call records another amendment (and changes the fractions it names)"}},
    {"record_written_resolution",
     {{false, true, false, true},
      "without id, a new resolution each call; a signer's new signature replaces the earlier; adopted, its text is "
      "queued to every co-owner"}},
    {"set_bylaw", {{false, true, false, false}, "each call makes a new version of the article (a retry made a third)"}},
    {"set_common_portion", {{false, true, false, false}, "without id, each call creates a common portion"}},
    {"set_management_mandate", {{false, true, false, false}, "each call grants a mandate, ending the previous one"}},
    {"update_webhook", {{false, true, false, false}, "rotateSecret makes a new signing secret each call"}},
    {"update_outbox_message", {{false, true, true, true}, "status queued sends a failed message again"}},
    {"record_insurance_claim", {{false, false, false, false}, "each call opens a new claim"}},
    {"record_co_owner_insurance_certificate", {{false, false, false, false}, "each call records a new certificate (superseding the co-owner's older one)"}},
    {"record_expense", {{false, false, false, false}, "each call records a new invoice (the same one again is DUPLICATE_INVOICE), or pays one"}},
    {"record_maintenance", {{false, false, false, false}, "each call logs another piece of work; the component and schedule move on, nothing recorded is lost"}},
    {"record_inspection", {{false, false, false, false}, "each call records another assessment; the components take its findings, the older ones stay"}},
    {"record_project_expense", {{false, false, false, false}, "each call books another invoice (the same one again is DUPLICATE_INVOICE)"}},
    {"resolve_request", {{false, false, false, false}, "resolves a request once (again: INVALID_STATUS_TRANSITION), and may log work and book its cost"}},
    {"record_logbook_revision", {{false, false, false, false}, "each call records another revision of the logbook"}},
};

Hints declared(const json& annotations) {
    return {annotations.at("readOnlyHint"), annotations.at("destructiveHint"), annotations.at("idempotentHint"),
            annotations.at("openWorldHint")};
}

std::string verb_of(const std::string& name) { return name.substr(0, name.find('_')); }

}  // namespace

TEST_SUITE("annotations") {

TEST_CASE("every tool's four hints follow its verb's rule, or its own stated reason") {
    const ToolRegistry registry(all_tool_handlers());
    for (const auto& d : registry.descriptors()) {
        const std::string name = d["name"];
        CAPTURE(name);
        const auto& a = d["annotations"];
        REQUIRE(a.is_object());
        for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
            CAPTURE(hint);
            REQUIRE(a.contains(hint));
            REQUIRE(a[hint].is_boolean());
        }
        const auto tool = by_tool.find(name);
        const auto verb = by_verb.find(verb_of(name));
        REQUIRE_MESSAGE((tool != by_tool.end() || verb != by_verb.end()),
                        "no rule for the verb '" << verb_of(name) << "': add it to by_verb, or the tool to by_tool");
        const Hints expected = tool != by_tool.end() ? tool->second.hints : verb->second;
        INFO("declared " << shown(declared(a)) << "; expected " << shown(expected)
                         << (tool != by_tool.end() ? std::string(" because ") + tool->second.reason : std::string()));
        CHECK(declared(a) == expected);
    }
}

TEST_CASE("a tool's own reason names a tool that exists and differs from its verb's rule") {
    const ToolRegistry registry(all_tool_handlers());
    for (const auto& [name, exception] : by_tool) {
        CAPTURE(name);
        CHECK(registry.offers(name));
        const auto verb = by_verb.find(verb_of(name));
        if (verb != by_verb.end()) CHECK_FALSE(verb->second == exception.hints);
    }
}

TEST_CASE("what the schemas say of a tool agrees with its hints") {
    const ToolRegistry registry(all_tool_handlers());
    for (const auto& d : registry.descriptors()) {
        const std::string name = d["name"];
        CAPTURE(name);
        const auto hints = declared(d["annotations"]);
        const auto& document = registry.schema_document(name);
        const auto events = document.value("events", json::array());
        // A tool that queues mail reaches the people it is sent to.
        if (std::find(events.begin(), events.end(), "message.queued") != events.end()) CHECK(hints.open_world);
        // A read emits no event and changes nothing; the other hints are a write's.
        if (hints.read_only) {
            CHECK(events.empty());
            CHECK_FALSE(hints.destructive);
            CHECK(hints.idempotent);
        }
    }
}

}  // TEST_SUITE

}  // namespace annotations_test
