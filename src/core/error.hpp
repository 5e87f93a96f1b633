// The domain's error: a machine code (UNIT_NOT_FOUND...), one English sentence, the argument at
// fault and any figures. Thrown by every layer below tools/; only tools/ turns it into JSON-RPC
// or REST. Must not know JSON or the wire.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace syndic {

struct FieldError {
    std::string field;   // JSON Pointer into the arguments, "" for the whole object
    std::string reason;  // one English phrase
};

class DomainError : public std::runtime_error {
public:
    using Figure = std::variant<std::string, double, std::int64_t, bool>;

    DomainError(std::string code, std::string detail)
        : std::runtime_error(detail), code_(std::move(code)), detail_(std::move(detail)) {}

    DomainError& at(std::string field) { field_ = std::move(field); return *this; }
    DomainError& with(std::string key, Figure value) {
        figures_.emplace_back(std::move(key), std::move(value));
        return *this;
    }
    DomainError& with_errors(std::vector<FieldError> errors) { errors_ = std::move(errors); return *this; }

    const std::string& code() const { return code_; }
    const std::string& detail() const { return detail_; }
    const std::string& field() const { return field_; }
    const std::vector<std::pair<std::string, Figure>>& figures() const { return figures_; }
    const std::vector<FieldError>& errors() const { return errors_; }

private:
    std::string code_;
    std::string detail_;
    std::string field_;
    std::vector<std::pair<std::string, Figure>> figures_;
    std::vector<FieldError> errors_;
};

// The codes the interface and decisions name, so a typo is a compile error.
namespace codes {
inline constexpr const char* validation_failed = "VALIDATION_FAILED";
inline constexpr const char* not_authenticated = "NOT_AUTHENTICATED";
inline constexpr const char* insufficient_scope = "INSUFFICIENT_SCOPE";
inline constexpr const char* admin_required = "ADMIN_REQUIRED";
inline constexpr const char* unit_not_found = "UNIT_NOT_FOUND";
inline constexpr const char* co_owner_not_found = "CO_OWNER_NOT_FOUND";
inline constexpr const char* duplicate_primary = "DUPLICATE_PRIMARY";
inline constexpr const char* invalid_email = "INVALID_EMAIL";
inline constexpr const char* fraction_out_of_range = "FRACTION_OUT_OF_RANGE";
inline constexpr const char* duplicate_unit_number = "DUPLICATE_UNIT_NUMBER";
inline constexpr const char* fraction_sum_out_of_range = "FRACTION_SUM_OUT_OF_RANGE";
inline constexpr const char* co_owner_fraction_exceeds_unit = "CO_OWNER_FRACTION_EXCEEDS_UNIT";
inline constexpr const char* link_conflict = "LINK_CONFLICT";
inline constexpr const char* unit_in_use = "UNIT_IN_USE";
inline constexpr const char* bulk_limit_exceeded = "BULK_LIMIT_EXCEEDED";
inline constexpr const char* not_archived = "NOT_ARCHIVED";
inline constexpr const char* meeting_not_found = "MEETING_NOT_FOUND";
inline constexpr const char* resolution_not_found = "RESOLUTION_NOT_FOUND";
inline constexpr const char* invalid_status_transition = "INVALID_STATUS_TRANSITION";
inline constexpr const char* notice_period_too_short = "NOTICE_PERIOD_TOO_SHORT";
inline constexpr const char* cancelled = "CANCELLED";
// The water heaters, insurance and contractors modules (docs/decisions.md).
inline constexpr const char* water_heater_not_found = "WATER_HEATER_NOT_FOUND";
inline constexpr const char* insurance_policy_not_found = "INSURANCE_POLICY_NOT_FOUND";
inline constexpr const char* contractor_not_found = "CONTRACTOR_NOT_FOUND";
inline constexpr const char* document_not_found = "DOCUMENT_NOT_FOUND";
inline constexpr const char* invalid_date_range = "INVALID_DATE_RANGE";
inline constexpr const char* duplicate_peril = "DUPLICATE_PERIL";
inline constexpr const char* duplicate_neq = "DUPLICATE_NEQ";
inline constexpr const char* invalid_neq = "INVALID_NEQ";
inline constexpr const char* invalid_rbq_licence = "INVALID_RBQ_LICENCE";
// The documents module (catalogue 4.1, docs/decisions.md "Documents").
inline constexpr const char* document_type_not_allowed = "DOCUMENT_TYPE_NOT_ALLOWED";
inline constexpr const char* document_too_large = "DOCUMENT_TOO_LARGE";
inline constexpr const char* document_protected = "DOCUMENT_PROTECTED";
inline constexpr const char* target_not_found = "TARGET_NOT_FOUND";
inline constexpr const char* link_not_found = "LINK_NOT_FOUND";
// The administration module (catalogue section 4.2).
inline constexpr const char* outbox_message_not_found = "OUTBOX_MESSAGE_NOT_FOUND";
inline constexpr const char* invalid_webhook_url = "INVALID_WEBHOOK_URL";
inline constexpr const char* unknown_event_type = "UNKNOWN_EVENT_TYPE";
inline constexpr const char* webhook_not_found = "WEBHOOK_NOT_FOUND";
inline constexpr const char* webhook_delivery_not_found = "WEBHOOK_DELIVERY_NOT_FOUND";
inline constexpr const char* webhook_inactive = "WEBHOOK_INACTIVE";
inline constexpr const char* webhook_limit_reached = "WEBHOOK_LIMIT_REACHED";
inline constexpr const char* user_not_found = "USER_NOT_FOUND";
inline constexpr const char* api_key_not_found = "API_KEY_NOT_FOUND";
inline constexpr const char* last_admin = "LAST_ADMIN";
// Authorising resolutions (meetings, shared: catalogue §0) and the declaration (catalogue §3.1).
inline constexpr const char* resolution_required = "RESOLUTION_REQUIRED";
inline constexpr const char* resolution_not_passed = "RESOLUTION_NOT_PASSED";
inline constexpr const char* majority_insufficient = "MAJORITY_INSUFFICIENT";
inline constexpr const char* wrong_decision_body = "WRONG_DECISION_BODY";
inline constexpr const char* meeting_not_held = "MEETING_NOT_HELD";
inline constexpr const char* quorum_not_reached = "QUORUM_NOT_REACHED";
inline constexpr const char* fiscal_year_locked = "FISCAL_YEAR_LOCKED";
inline constexpr const char* bylaw_not_found = "BYLAW_NOT_FOUND";
inline constexpr const char* duplicate_bylaw_article = "DUPLICATE_BYLAW_ARTICLE";
inline constexpr const char* penalties_not_allowed = "PENALTIES_NOT_ALLOWED";
inline constexpr const char* common_portion_not_found = "COMMON_PORTION_NOT_FOUND";
inline constexpr const char* duplicate_common_portion = "DUPLICATE_COMMON_PORTION";
inline constexpr const char* common_portion_in_use = "COMMON_PORTION_IN_USE";
inline constexpr const char* amendment_required = "AMENDMENT_REQUIRED";
inline constexpr const char* amendment_not_found = "AMENDMENT_NOT_FOUND";
inline constexpr const char* amendment_consent_missing = "AMENDMENT_CONSENT_MISSING";
// The HTTP bridge's own refusals (decisions 3 and docs/decisions.md).
inline constexpr const char* rate_limited = "RATE_LIMITED";
inline constexpr const char* invalid_json = "INVALID_JSON";
inline constexpr const char* route_not_found = "ROUTE_NOT_FOUND";
inline constexpr const char* method_not_allowed = "METHOD_NOT_ALLOWED";
inline constexpr const char* unsupported_media_type = "UNSUPPORTED_MEDIA_TYPE";
inline constexpr const char* not_acceptable = "NOT_ACCEPTABLE";
inline constexpr const char* payload_too_large = "PAYLOAD_TOO_LARGE";
inline constexpr const char* origin_not_allowed = "ORIGIN_NOT_ALLOWED";
inline constexpr const char* host_not_allowed = "HOST_NOT_ALLOWED";
// Refused by the server under the bridge before any route (src/http/connection.cpp): framing that
// is not strict HTTP/1.1 (400), a request line and header over 64 KiB or 100 fields (431).
inline constexpr const char* bad_request = "BAD_REQUEST";
inline constexpr const char* headers_too_large = "HEADERS_TOO_LARGE";
inline constexpr const char* server_busy = "SERVER_BUSY";
inline constexpr const char* internal_error = "INTERNAL_ERROR";
// Storage that refuses a write (docs/decisions.md, "Storage: nothing recorded that is not on disk").
inline constexpr const char* storage_full = "STORAGE_FULL";
inline constexpr const char* storage_unavailable = "STORAGE_UNAVAILABLE";
inline constexpr const char* database_unusable = "DATABASE_UNUSABLE";
}  // namespace codes

// VALIDATION_FAILED for one argument the schema cannot judge (a blank name, a proxy without its
// holder...): `data.field` and `data.errors` name it, as schema failures do.
inline DomainError invalid_argument(const std::string& field, const std::string& reason, const std::string& detail) {
    return DomainError(codes::validation_failed, detail).at(field).with_errors({{field, reason}});
}

}  // namespace syndic
