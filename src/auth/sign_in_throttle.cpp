#include "auth/sign_in_throttle.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace syndic {

namespace {

constexpr std::chrono::minutes window{15};
constexpr std::chrono::hours known_for{24 * 30};

std::string pair_key(const std::string& source, const std::string& account) { return source + "\n" + account; }

// 1 minute at the threshold, doubling with each failure past it, at most the window.
Instant delayed(Instant now, int past_threshold) {
    return now + std::min<std::chrono::seconds>(window, std::chrono::seconds(60L << std::min(past_threshold, 4)));
}

}  // namespace

std::string sign_in_account_key(std::string_view email) { return ascii_lower(trim(email)); }

std::int64_t SignInThrottle::remaining(const std::map<std::string, Count>& counts, const std::string& key, Instant now) {
    const auto it = counts.find(key);
    if (it == counts.end() || it->second.locked_until <= now) return 0;
    return std::chrono::duration_cast<std::chrono::seconds>(it->second.locked_until - now).count() + 1;
}

// The count under `key`, started again once its window is over and a whole window has passed
// since its last wait ended (a source that keeps failing keeps its doubled wait).
SignInThrottle::Count& SignInThrottle::counted(std::map<std::string, Count>& counts, const std::string& key, Instant now) {
    auto& c = counts[key];
    if (now - c.first > window && now - c.locked_until > window) c = {now, 0, {}};
    return c;
}

bool SignInThrottle::known(const std::string& source, const std::string& account, Instant now) const {
    const auto it = known_.find(pair_key(source, account));
    return it != known_.end() && now - it->second <= known_for;
}

int SignInThrottle::wait(std::string_view email, const std::string& source, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    auto seconds = remaining(by_pair_, pair_key(source, account), now);
    if (!known(source, account, now)) seconds = std::max(seconds, remaining(by_source_, source, now));
    return static_cast<int>(seconds);
}

void SignInThrottle::failed(std::string_view email, const std::string& source, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    sweep(now);
    auto& everyone = counted(by_account_, account, now);
    ++everyone.failures;
    const bool guessed_from_everywhere = everyone.failures >= account_failures;
    const int threshold = guessed_from_everywhere && !known(source, account, now) ? 1 : source_failures;
    auto& pair = counted(by_pair_, pair_key(source, account), now);
    if (++pair.failures >= threshold) pair.locked_until = delayed(now, pair.failures - threshold);
    auto& from = counted(by_source_, source, now);
    if (++from.failures >= address_failures) from.locked_until = now + window;
}

void SignInThrottle::succeeded(std::string_view email, const std::string& source, Instant now) {
    const auto account = sign_in_account_key(email);
    std::lock_guard lock(mutex_);
    by_pair_.erase(pair_key(source, account));
    known_[pair_key(source, account)] = now;
}

// Forgets counts whose window and wait are over once the maps grow large.
void SignInThrottle::sweep(Instant now) {
    if (by_pair_.size() + by_account_.size() + by_source_.size() + known_.size() < 10000) return;
    for (auto* counts : {&by_pair_, &by_account_, &by_source_})
        std::erase_if(*counts, [&](const auto& item) { return now - item.second.first > window && now - item.second.locked_until > window; });
    std::erase_if(known_, [&](const auto& item) { return now - item.second > known_for; });
}

}  // namespace syndic
