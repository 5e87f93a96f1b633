// The accounting module's own error codes (schemas/accounting/module.json declares each with its status).
#pragma once

namespace syndic::accounting::codes {
inline constexpr const char* account_not_found = "ACCOUNT_NOT_FOUND";
inline constexpr const char* fund_use_authorization_not_found = "FUND_USE_AUTHORIZATION_NOT_FOUND";
inline constexpr const char* duplicate_account_code = "DUPLICATE_ACCOUNT_CODE";
inline constexpr const char* period_locked = "PERIOD_LOCKED";
inline constexpr const char* system_account = "SYSTEM_ACCOUNT";
inline constexpr const char* unbalanced_entry = "UNBALANCED_ENTRY";
inline constexpr const char* fund_use_not_allowed = "FUND_USE_NOT_ALLOWED";
inline constexpr const char* fund_use_exceeded = "FUND_USE_EXCEEDED";
inline constexpr const char* charge_not_due = "CHARGE_NOT_DUE";
inline constexpr const char* already_reversed = "ALREADY_REVERSED";
inline constexpr const char* nsf_fee_not_set = "NSF_FEE_NOT_SET";
}  // namespace syndic::accounting::codes
