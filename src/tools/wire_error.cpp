#include "tools/wire_error.hpp"

#include <nlohmann/json.hpp>

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

int http_status(const std::string& code) {
    if (code == codes::not_authenticated) return 401;
    if (code == codes::insufficient_scope || code == codes::admin_required || code == codes::origin_not_allowed ||
        code == codes::host_not_allowed)
        return 403;
    if (code == codes::method_not_allowed) return 405;
    if (code == codes::not_acceptable) return 406;
    if (code == codes::payload_too_large) return 413;
    if (code == codes::headers_too_large) return 431;
    if (code == codes::unsupported_media_type) return 415;
    if (code == codes::internal_error) return 500;
    if (code == codes::server_busy || code == codes::storage_unavailable || code == codes::database_unusable) return 503;
    if (code == codes::storage_full) return 507;
    if (code.size() > 10 && code.ends_with("_NOT_FOUND")) return 404;
    if (code.rfind("DUPLICATE_", 0) == 0 || code == codes::link_conflict || code == codes::unit_in_use ||
        code == codes::invalid_status_transition || code == codes::not_archived)
        return 409;
    if (code == codes::fraction_sum_out_of_range || code == codes::notice_period_too_short ||
        code == codes::bulk_limit_exceeded || code == codes::co_owner_fraction_exceeds_unit)
        return 422;
    if (code == codes::rate_limited) return 429;
    return 400;
}

}  // namespace syndic
