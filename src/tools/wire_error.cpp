#include "tools/wire_error.hpp"

#include <nlohmann/json.hpp>

#include "tools/manifests.hpp"

namespace syndic {

nlohmann::json error_data(const DomainError& error) {
    nlohmann::json data = {{"detail", error.detail()}};
    if (!error.field().empty()) data["field"] = error.field();
    for (const auto& [key, value] : error.figures())
        std::visit([&, &key = key](const auto& v) { data[key] = v; }, value);
    if (!error.errors().empty()) {
        auto& list = data["errors"] = nlohmann::json::array();
        for (const auto& e : error.errors()) list.push_back({{"field", e.field}, {"reason", e.reason}});
    }
    return data;
}

// The status the code's manifest declares (schemas/<module>/module.json, schemas/platform.json). A
// code no manifest declares is a server bug, so it answers 500 rather than pass for the caller's
// fault; the manifests test checks every code the program names is declared.
int http_status(const std::string& code) {
    const auto* declared = find_error(code);
    return declared ? declared->status : 500;
}

}  // namespace syndic
