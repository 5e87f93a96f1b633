// Failed sign-ins counted in this process (docs/oauth.md, "Sign-in throttling"): per account and
// source together, per account over every source, and per source over every account. The account
// is keyed by the e-mail as the database matches it (trimmed, ASCII case folded); the source is
// the client as the bridge counts it (an IPv4 address, an IPv6 /64, or the client a trusted proxy
// names). Knows time and text, not HTTP, passwords or the database.
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

// Failures from others never lock an account's owner out (issue 28, point 5):
// - Account and source: 5 failures within 15 minutes make that source wait 1 minute before its
//   next try on that account, doubling with each further failure up to 15 minutes. Only the
//   source that failed waits; a success clears its count.
// - Account, every source: once 50 failures within 15 minutes come from all sources together (a
//   guesser with many addresses), a source that has not signed in to the account within 30 days
//   waits after its own first failure instead of its fifth, with the same doubling. Its first
//   try, the right password included, is always checked; a known source keeps its 5.
// - Source, every account: 50 failures within 15 minutes make the source wait 15 minutes for
//   every account that has not signed in from it within 30 days, so one guesser behind a shared
//   proxy does not lock out the people who use it.
class SignInThrottle {
public:
    static constexpr int source_failures = 5;
    static constexpr int account_failures = 50;
    static constexpr int address_failures = 50;

    // Seconds to wait before this attempt may be checked, or 0.
    int wait(std::string_view email, const std::string& source, Instant now);
    void failed(std::string_view email, const std::string& source, Instant now);
    void succeeded(std::string_view email, const std::string& source, Instant now);

private:
    struct Count {
        Instant first;
        int failures = 0;
        Instant locked_until;
    };
    static std::int64_t remaining(const std::map<std::string, Count>& counts, const std::string& key, Instant now);
    static Count& counted(std::map<std::string, Count>& counts, const std::string& key, Instant now);
    bool known(const std::string& source, const std::string& account, Instant now) const;
    void sweep(Instant now);
    std::mutex mutex_;
    std::map<std::string, Count> by_pair_, by_account_, by_source_;
    std::map<std::string, Instant> known_;  // "source\naccount" -> last success
};

}  // namespace syndic
