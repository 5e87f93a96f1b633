// A module's argument handling: every tool of one module called through the registry (scope and
// role checks, schema validation, the handler, the outputSchema check) on the seeded database.
// One executable (fuzz-tools) serves every module: the corpus picks it. The module is the one named
// by a folder `fuzz-<module>` in the path of the corpus or input given (corpus/fuzz-board/,
// crashes/fuzz-board/crash-...), or by $SYNDIC_FUZZ_MODULE, which wins.
//
// An input is up to 6 lines, one call each: `[@member |@other ]<tool> <JSON arguments>`. A tool
// name the module lacks picks one of its tools by a hash, so a mutated name still calls
// something. @member calls as a member of syndicate A, @other as the admin of syndicate B, the
// default as the admin of A. Names ("@u0", "@c1", "@m2"...) stand for seeded records (world.hpp).
//
// What must hold: a call answers or throws a DomainError with a known code, a detail, and no
// change to the database; a result matches the tool's outputSchema; the database stays whole.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "world.hpp"

namespace {

using namespace syndic;
using namespace syndic::fuzz;

// The module this run fuzzes (LLVMFuzzerInitialize sets it before the first input).
std::string fuzzed_module;

// The module named by $SYNDIC_FUZZ_MODULE, else by the first `fuzz-<module>` folder in the paths
// libFuzzer is given (its flags, which start with '-', skipped); empty when none names one.
std::string module_named_by(int argc, char** argv, const std::set<std::string>& modules) {
    if (const char* given = std::getenv("SYNDIC_FUZZ_MODULE"); given != nullptr && *given != '\0') return given;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') continue;
        for (const auto& part : std::filesystem::path(argv[i])) {
            const std::string folder = part.string();
            if (folder.rfind("fuzz-", 0) == 0 && modules.count(folder.substr(5)) != 0) return folder.substr(5);
        }
    }
    return {};
}

const std::vector<std::string>& module_tools() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& t : world().registry.tools())
            if (t.module == fuzzed_module) out.push_back(t.name);
        if (out.empty()) fail("no tool in module " + fuzzed_module);
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

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    std::set<std::string> modules;
    for (const auto& t : world().registry.tools()) modules.insert(t.module);
    fuzzed_module = module_named_by(*argc, *argv, modules);
    if (fuzzed_module.empty())
        fail("fuzz-tools: name the module with a corpus folder corpus/fuzz-<module>/ or SYNDIC_FUZZ_MODULE=<module>");
    module_tools();  // fails now, not at the first input, when the module has no tool
    // tools/fuzz checks this line against the target's name: a target fuzzing another module fails.
    std::fprintf(stderr, "fuzz-tools: module %s\n", fuzzed_module.c_str());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto& w = world();
    const auto lines = lines_of(data, size, 6);
    w.run([&] {
        for (const auto line : lines) one_call(w, line);
    });
    return 0;
}
