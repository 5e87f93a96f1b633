#include "auth/sign_in_throttle.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace syndic {

namespace {

constexpr std::chrono::minutes window{15};
constexpr std::chrono::hours known_for{24 * 30};

std::string pair_key(const std::string& address, const std::string& account) { return address + "\n" + account; }

}  // namespace

std::string sign_in_account_key(std::string_view email) { return ascii_lower(trim(email)); }

std::int64_t SignInThrottle::remaining(const std::map<std::string, Count>& counts, const std::string& key, Instant now) {
    const auto it = counts.find(key);
    if (it == counts.end() || it->second.locked_until <= now) return 0;
    return std::chrono::duration_cast<std::chrono::seconds>(it->second.locked_until - now).count() + 1;
}

int SignInThrottle::wait(std::string_view email, const std::string& address, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    auto seconds = remaining(by_account_, account, now);
    const auto known = known_.find(pair_key(address, account));
    if (known == known_.end() || now - known->second > known_for) seconds = std::max(seconds, remaining(by_address_, address, now));
    return static_cast<int>(seconds);
}

void SignInThrottle::failed(std::string_view email, const std::string& address, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    sweep(now);
    auto& a = by_account_[account];
    if (now - a.first > window) a = {now, 0, {}};
    if (++a.failures >= account_failures)
        a.locked_until = now + std::min<std::chrono::seconds>(window, std::chrono::seconds(60L << std::min(a.failures - account_failures, 4)));
    auto& c = by_address_[address];
    if (now - c.first > window) c = {now, 0, {}};
    if (++c.failures >= address_failures) c.locked_until = now + window;
}

void SignInThrottle::succeeded(std::string_view email, const std::string& address, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    by_account_.erase(account);
    known_[pair_key(address, account)] = now;
}

// Forgets counts whose window and lock are over once the maps grow large.
void SignInThrottle::sweep(Instant now) {
    if (by_account_.size() + by_address_.size() + known_.size() < 10000) return;
    for (auto* counts : {&by_account_, &by_address_})
        std::erase_if(*counts, [&](const auto& item) { return now - item.second.first > window && item.second.locked_until <= now; });
    std::erase_if(known_, [&](const auto& item) { return now - item.second > known_for; });
}

}  // namespace syndic
