// Plan limits of the HTTP bridge: a request budget per credential (or per client address when
// there is none), as a token bucket refilled continuously. Knows time as seconds given by the
// caller, not clocks, HTTP or credentials.
#pragma once
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace syndic::http {

struct RatePlan {
    double requests = 0;        // per period; 0: no limit
    double period_seconds = 60;

    bool unlimited() const { return requests <= 0; }
    // "120/min", "5/s", "1000/h", "0" or "off"; std::invalid_argument otherwise.
    static RatePlan parse(std::string_view text);
    std::string describe() const;  // "120/min"
};

class RateLimiter {
public:
    explicit RateLimiter(RatePlan plan) : plan_(plan) {}

    // Takes one request from `who`'s bucket at time `now` (seconds, any monotonic origin).
    // nullopt when allowed; else the whole seconds to wait before the next one is.
    std::optional<int> take(const std::string& who, double now);

    const RatePlan& plan() const { return plan_; }

private:
    struct Bucket {
        double tokens;
        double updated;
    };
    RatePlan plan_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
    double last_sweep_ = 0;
};

}  // namespace syndic::http
