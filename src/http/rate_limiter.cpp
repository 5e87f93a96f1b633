#include "http/rate_limiter.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace syndic::http {

RatePlan RatePlan::parse(std::string_view text) {
    if (text == "0" || text == "off" || text == "none") return {};
    const auto slash = text.find('/');
    const auto bad = [&] {
        return std::invalid_argument("rate limit '" + std::string(text) + "' is not N/min, N/s or N/h (or off)");
    };
    if (slash == std::string_view::npos) throw bad();
    long count = 0;
    const auto number = text.substr(0, slash);
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), count);
    if (error != std::errc() || end != number.data() + number.size() || count < 0 || count > 1'000'000'000) throw bad();
    const auto unit = text.substr(slash + 1);
    double period = 0;
    if (unit == "s" || unit == "sec" || unit == "second") period = 1;
    else if (unit == "min" || unit == "m" || unit == "minute") period = 60;
    else if (unit == "h" || unit == "hour") period = 3600;
    else throw bad();
    return {static_cast<double>(count), period};
}

std::string RatePlan::describe() const {
    if (unlimited()) return "off";
    const char* unit = period_seconds == 1 ? "s" : period_seconds == 3600 ? "h" : "min";
    return std::to_string(static_cast<long>(requests)) + "/" + unit;
}

std::optional<int> RateLimiter::take(const std::string& who, double now) {
    if (plan_.unlimited()) return std::nullopt;
    const double rate = plan_.requests / plan_.period_seconds;  // tokens per second
    std::lock_guard lock(mutex_);
    // Forget full buckets now and then, so addresses seen once do not pile up.
    if (now - last_sweep_ > plan_.period_seconds) {
        for (auto it = buckets_.begin(); it != buckets_.end();)
            it = (it->second.tokens + (now - it->second.updated) * rate >= plan_.requests) ? buckets_.erase(it) : std::next(it);
        last_sweep_ = now;
    }
    auto [it, fresh] = buckets_.try_emplace(who, Bucket{plan_.requests, now});
    auto& bucket = it->second;
    if (!fresh) {
        bucket.tokens = std::min(plan_.requests, bucket.tokens + std::max(0.0, now - bucket.updated) * rate);
        bucket.updated = now;
    }
    if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return std::nullopt;
    }
    return std::max(1, static_cast<int>(std::ceil((1 - bucket.tokens) / rate)));
}

}  // namespace syndic::http
