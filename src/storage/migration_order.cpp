#include "storage/migration_order.hpp"

#include <algorithm>
#include <charconv>
#include <queue>
#include <set>
#include <stdexcept>

namespace syndic {
namespace {

// A module in dependsOn's cycle, followed through dependencies not yet placed until one repeats:
// "a -> b -> a".
std::string cycle_through(const std::map<std::string, std::vector<std::string>>& depends_on,
                          const std::set<std::string>& unplaced) {
    std::vector<std::string> path{*unplaced.begin()};
    for (;;) {
        const auto& deps = depends_on.at(path.back());
        const auto next = *std::find_if(deps.begin(), deps.end(), [&](const auto& d) { return unplaced.count(d) > 0; });
        const auto seen = static_cast<std::size_t>(std::find(path.begin(), path.end(), next) - path.begin());
        path.push_back(next);
        if (seen + 1 < path.size()) {
            std::string text;
            for (auto i = seen; i < path.size(); ++i) text += (text.empty() ? "" : " -> ") + path[i];
            return text;
        }
    }
}

}  // namespace

std::optional<MigrationKey> migration_key(std::string_view name) {
    const auto slash = name.find('/');
    if (slash == std::string_view::npos || slash == 0 || name.find('/', slash + 1) != std::string_view::npos)
        return std::nullopt;
    const auto file = name.substr(slash + 1);
    int number = 0;
    const auto [end, ec] = std::from_chars(file.data(), file.data() + file.size(), number);
    if (ec != std::errc{} || number <= 0 || end - file.data() != 3 || end == file.data() + file.size() || *end != '_' ||
        !file.ends_with(".sql"))
        return std::nullopt;
    return MigrationKey{std::string(name.substr(0, slash)), number};
}

void check_migration_names(const std::vector<std::string>& names) {
    std::map<MigrationKey, std::vector<std::string>> by_key;
    for (const auto& name : names) {
        const auto key = migration_key(name);
        if (!key)
            throw std::logic_error("migration file not named <module>/NNN_name.sql: " + name +
                                   " (NNN, from 001, numbers it within its module)");
        by_key[*key].push_back(name);
    }
    MigrationKey expected{"", 1};
    std::string previous;
    for (const auto& [key, files] : by_key) {
        if (key.module != expected.module) {
            expected = {key.module, 1};
            previous.clear();
        }
        if (files.size() > 1) {
            std::string listed;
            for (const auto& f : files) listed += (listed.empty() ? "" : " and ") + f;
            throw std::logic_error("two migration files are " + key.module + "'s number " + std::to_string(key.number) +
                                   ": " + listed + "; a database that has one would skip the other. Give each its own number.");
        }
        if (key.number != expected.number)
            throw std::logic_error("no migration file is " + key.module + "'s number " + std::to_string(expected.number) +
                                   (previous.empty() ? " (a module's numbers start at 001)" : " (after " + previous + ")") +
                                   ", yet " + files.front() + " is number " + std::to_string(key.number) +
                                   ": a module's migration numbers follow each other without a gap.");
        previous = files.front();
        ++expected.number;
    }
}

std::vector<std::string> module_order(const std::map<std::string, std::vector<std::string>>& declared) {
    // A dependency without a manifest (a module of code only, such as accounting) has no
    // migrations and depends on nothing here: a node like any other.
    auto depends_on = declared;
    for (const auto& [module, deps] : declared)
        for (const auto& d : deps) depends_on.try_emplace(d);
    std::map<std::string, int> waiting_for;                   // module -> dependencies not placed yet
    std::map<std::string, std::vector<std::string>> needed_by;  // module -> those that depend on it
    for (const auto& [module, deps] : depends_on) {
        if (module == core_module) throw std::logic_error("no module may be called 'core': it names the core's migrations");
        waiting_for[module] = static_cast<int>(deps.size());
        for (const auto& d : deps) {
            if (d == module) throw std::logic_error("module " + module + " depends on itself (dependsOn)");
            needed_by[d].push_back(module);
        }
    }
    std::priority_queue<std::string, std::vector<std::string>, std::greater<>> ready;
    for (const auto& [module, n] : waiting_for)
        if (n == 0) ready.push(module);
    std::vector<std::string> order{std::string(core_module)};
    while (!ready.empty()) {
        order.push_back(ready.top());
        ready.pop();
        for (const auto& user : needed_by[order.back()])
            if (--waiting_for[user] == 0) ready.push(user);
    }
    if (order.size() == depends_on.size() + 1) return order;
    std::set<std::string> unplaced;
    for (const auto& [module, n] : waiting_for)
        if (n > 0) unplaced.insert(module);
    throw std::logic_error("the modules' dependsOn form a cycle (" + cycle_through(depends_on, unplaced) +
                           "): their migrations cannot be ordered. Remove one of these dependencies "
                           "(schemas/<module>/module.json).");
}

}  // namespace syndic
