// A module's argument handling: every tool of FUZZ_MODULE called through the registry (scope and
// role checks, schema validation, the handler, the outputSchema check) on the seeded database.
//
// An input is up to 6 lines, one call each: `[@member |@other ]<tool> <JSON arguments>`. A tool
// name the module lacks picks one of its tools by a hash, so a mutated name still calls
// something. @member calls as a member of syndicate A, @other as the admin of syndicate B, the
// default as the admin of A. Placeholders ("@u0", "@c1", "@m2"...) name seeded records (world.hpp).
//
// What must hold: a call answers or throws a DomainError with a known code, a detail, and no
// change to the database; a result matches the tool's outputSchema; the database stays whole.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "world.hpp"

#ifndef FUZZ_MODULE
#error "FUZZ_MODULE must name the module this target calls (co-owners, units, meetings, water-heaters...)"
#endif

namespace {

using namespace syndic;
using namespace syndic::fuzz;

const std::vector<std::string>& module_tools() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& t : world().registry.tools())
            if (t.module == FUZZ_MODULE) out.push_back(t.name);
        if (out.empty()) fail("no tool in module " FUZZ_MODULE);
        return out;
    }();
    return names;
}

void one_call(World& w, std::string_view line) {
    const CallerContext* who = &w.admin;
    if (line.rfind("@member ", 0) == 0) {
        who = &w.member;
        line.remove_prefix(8);
    } else if (line.rfind("@other ", 0) == 0) {
        who = &w.other_admin;
        line.remove_prefix(7);
    }
    const auto space = line.find(' ');
    const std::string_view name = line.substr(0, space);
    const std::string_view text = space == std::string_view::npos ? std::string_view("{}") : line.substr(space + 1);

    const auto& tools = module_tools();
    std::string tool;
    for (const auto& t : tools)
        if (t == name) tool = t;
    if (tool.empty()) {
        std::uint32_t hash = 2166136261u;
        for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
        tool = tools[hash % tools.size()];
    }

    // As the transports do: nothing deeper than the dispatcher's limit reaches the parser.
    if (json_nesting_depth(text, 64) > 64) return;
    json args = json::parse(text, nullptr, false);
    if (args.is_discarded()) return;
    w.substitute(args);
    w.call(tool, args, *who);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto& w = world();
    const auto lines = lines_of(data, size, 6);
    w.run([&] {
        for (const auto line : lines) one_call(w, line);
    });
    return 0;
}
