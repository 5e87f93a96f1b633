// Failed sign-ins counted in this process (docs/oauth.md, "Sign-in throttling"): per account,
// keyed by the e-mail as the database matches it (trimmed, ASCII case folded), and per client
// address apart. Knows time and text, not HTTP, passwords or the database.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "core/clock.hpp"

namespace syndic {

// The key an e-mail is counted under: trimmed and case folded as `users.email COLLATE NOCASE`
// compares, so " Lise@Example.ca " and "lise@example.ca" share one count.
std::string sign_in_account_key(std::string_view email);

// Account: 5 failures within 15 minutes lock the account for 1 minute, doubling with each further
// failure up to 15 minutes; a success clears its count. Address: 50 failures within 15 minutes
// lock the address for 15 minutes, but only for accounts that have not signed in from that
// address within 30 days, so one guesser behind a shared proxy does not lock out the people who
// use it (each of their accounts still has its own 5 tries).
class SignInThrottle {
public:
    static constexpr int account_failures = 5;
    static constexpr int address_failures = 50;

    // Seconds to wait before this attempt may be checked, or 0.
    int wait(std::string_view email, const std::string& address, Instant now);
    void failed(std::string_view email, const std::string& address, Instant now);
    void succeeded(std::string_view email, const std::string& address, Instant now);

private:
    struct Count {
        Instant first;
        int failures = 0;
        Instant locked_until;
    };
    static std::int64_t remaining(const std::map<std::string, Count>& counts, const std::string& key, Instant now);
    void sweep(Instant now);
    std::mutex mutex_;
    std::map<std::string, Count> by_account_, by_address_;
    std::map<std::string, Instant> known_;  // "address\naccount" -> last success
};

}  // namespace syndic
