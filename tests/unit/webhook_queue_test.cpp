// Webhook delivery's contract rules (catalogue section 6) where the python test against a real
// receiver would take hours or stay loose: the retry schedule (1 min, 5 min, 30 min, 2 h, 12 h,
// 24 h, each not a moment early) and `abandoned` after the 7th attempt; the 10 s time-out every
// POST carries; which addresses a webhook may reach (link-local and private refused unless
// allowed, the metadata address always).
#include "fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "delivery/webhook_address.hpp"
#include "delivery/webhook_queue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace webhook_queue_test {

using namespace syndic::test;

namespace {

struct Receiver {
    std::vector<syndic::HttpPost> posts;
    syndic::TransferResult answer{false, 500, "HTTP 500", false};
    syndic::WebhookPoster poster() {
        return [this](const syndic::HttpPost& p) {
            posts.push_back(p);
            return answer;
        };
    }
};

// A webhook subscribed to contractors, and one contractor.created waiting for it.
void one_delivery(Fixture& fx) {
    SQLite::Statement q(fx.db->sql(),
                        "INSERT INTO webhooks (id, syndicate_id, url, events, active, secret_prefix, created_at, updated_at) "
                        "VALUES ('w1', ?, 'http://127.0.0.1:9/hook', '[\"contractors.*\"]', 1, 'whsec_', "
                        "'2026-11-21T15:00:00.000Z', '2026-11-21T15:00:00.000Z')");
    q.bind(1, fx.syndicate);
    q.exec();
    fx.call("create_contractor", {{"name", "Toitures Laval"}, {"trade", "roofing"}});
}

std::string status_of(Fixture& fx, int* attempt = nullptr) {
    SQLite::Statement q(fx.db->sql(), "SELECT status, attempt FROM webhook_deliveries");
    REQUIRE(q.executeStep());
    if (attempt) *attempt = q.getColumn(1).getInt();
    return q.getColumn(0).getString();
}

}  // namespace

TEST_SUITE("webhook-queue") {

TEST_CASE("a pass that fails before it posts gives its claims back: the next pass posts at once") {
    Fixture fx;
    LoopbackWebhooksAllowed loopback;
    one_delivery(fx);
    const syndic::WebhookPoster unavailable = [](const syndic::HttpPost&) -> syndic::TransferResult {
        throw std::runtime_error("Sending e-mail and webhooks unavailable: syndic-net.so: not found");
    };
    CHECK_THROWS_WITH_AS(syndic::deliver_webhooks(*fx.db, fx.clock, "w1", unavailable),
                         doctest::Contains("1 claimed and not posted, given back"), std::runtime_error);
    CHECK(status_of(fx) == "pending");
    Receiver up;
    up.answer = {true, 200, "HTTP 200", false};
    CHECK(syndic::deliver_webhooks(*fx.db, fx.clock, "w2", up.poster()).succeeded == 1);
}

TEST_CASE("the retry schedule: 1 min, 5 min, 30 min, 2 h, 12 h, 24 h, then abandoned after the 7th attempt") {
    const std::vector<int> minutes{1, 5, 30, 120, 720, 1440};
    for (int i = 0; i < 6; ++i) CHECK(syndic::webhook_retry_delay(i + 1) == std::chrono::minutes(minutes[i]));
    CHECK(syndic::webhook_attempts == 7);

    Fixture fx;
    LoopbackWebhooksAllowed loopback;
    one_delivery(fx);
    Receiver down;
    for (int failures = 1; failures <= 6; ++failures) {
        CAPTURE(failures);
        CHECK(syndic::deliver_webhooks(*fx.db, fx.clock, "w", down.poster()).retrying == 1);
        int attempt = 0;
        CHECK(status_of(fx, &attempt) == "failed");
        CHECK(attempt == failures);
        // Not a second early...
        fx.clock.advance(syndic::webhook_retry_delay(failures) - std::chrono::seconds(1));
        CHECK(syndic::deliver_webhooks(*fx.db, fx.clock, "w", down.poster()).retrying == 0);
        CHECK(static_cast<int>(down.posts.size()) == failures);
        // ...and due once the delay has passed.
        fx.clock.advance(std::chrono::seconds(1));
    }
    const auto last = syndic::deliver_webhooks(*fx.db, fx.clock, "w", down.poster());
    CHECK(last.abandoned == 1);
    int attempt = 0;
    CHECK(status_of(fx, &attempt) == "abandoned");
    CHECK(attempt == 7);
    fx.clock.advance(std::chrono::hours(48));
    CHECK(syndic::deliver_webhooks(*fx.db, fx.clock, "w", down.poster()).retrying == 0);
    CHECK(down.posts.size() == 7);
}

TEST_CASE("every POST gives the receiver 10 s, to the address checked") {
    Fixture fx;
    LoopbackWebhooksAllowed loopback;
    one_delivery(fx);
    Receiver up;
    up.answer = {true, 204, "", false};
    CHECK(syndic::deliver_webhooks(*fx.db, fx.clock, "w", up.poster()).succeeded == 1);
    REQUIRE(up.posts.size() == 1);
    CHECK(up.posts[0].timeout_seconds == 10);
    CHECK(up.posts[0].resolve == "127.0.0.1:9:127.0.0.1");
    CHECK(status_of(fx) == "succeeded");
}

TEST_CASE("addresses: this machine, private and link-local refused unless allowed; metadata always") {
    const auto refused = [](const std::string& url) { return !syndic::check_webhook_url(url).target.has_value(); };
    syndic::allow_private_webhooks(false);
    syndic::allow_loopback_webhooks(false);
    // Issue 28, point 6: this machine only with the operator's opt-in.
    CHECK(refused("http://127.0.0.1:8080/hook"));
    CHECK(refused("http://localhost:8080/hook"));
    CHECK(refused("https://[::1]/hook"));
    CHECK(refused("https://0.0.0.0/hook"));
    CHECK(syndic::check_webhook_url("http://127.0.0.1:8080/hook").refusal.find("--allow-loopback-webhooks") != std::string::npos);
    CHECK(refused("http://example.org/hook"));             // plain http off this machine
    CHECK(refused("https://169.254.10.20/hook"));          // link-local, not the metadata address
    CHECK(refused("https://[fe80::1]/hook"));              // IPv6 link-local
    CHECK(refused("https://[fec0::1]/hook"));              // IPv6 site-local
    CHECK(refused("https://10.0.0.5/hook"));
    CHECK(refused("https://192.168.1.20/hook"));
    CHECK(refused("https://169.254.169.254/latest/meta-data"));
    // The refusal never names the address a name resolved to.
    CHECK(syndic::check_webhook_url("https://10.0.0.5/hook").refusal.find("resolves to a private") != std::string::npos);
    // IPv6 forms that carry an IPv4 address are that address: NAT64, compatible, 6to4, Teredo, SIIT.
    for (const char* hidden : {"https://[64:ff9b::a00:5]/hook", "https://[64:ff9b::7f00:1]/hook", "https://[::a00:5]/hook",
                               "https://[::7f00:1]/hook", "https://[2002:a00:5::1]/hook", "https://[2002:7f00:1::1]/hook",
                               "https://[2001:0:a00:5::ffff:ffff]/hook", "https://[2001:0:5db8:a3c2:0:0:f5ff:fffa]/hook",
                               "https://[::ffff:0:a00:5]/hook", "https://[64:ff9b:1::5db8:a3c2]/hook", "https://[2001:db8::1]/hook",
                               "https://[2002:a9fe:a9fe::1]/hook"})
        CHECK_MESSAGE(refused(hidden), hidden);
    // The same forms around a public IPv4 address pass (93.184.216.34, 8.8.8.8).
    for (const char* open : {"https://[64:ff9b::5db8:d822]/hook", "https://[2002:5db8:d822::1]/hook", "https://[::5db8:d822]/hook",
                             "https://[2001:0:808:808:0:0:a247:27dd]/hook", "https://[2606:4700::1111]/hook"})
        CHECK_FALSE_MESSAGE(refused(open), open);
    syndic::allow_private_webhooks(true);
    CHECK_FALSE(refused("https://169.254.10.20/hook"));
    CHECK_FALSE(refused("https://10.0.0.5/hook"));
    CHECK_FALSE(refused("https://[64:ff9b::a00:5]/hook"));
    CHECK(refused("http://127.0.0.1:8080/hook"));  // private is not this machine
    CHECK(refused("https://[2002:7f00:1::1]/hook"));
    CHECK(refused("https://169.254.169.254/latest/meta-data"));  // never
    CHECK(refused("https://[fd00:ec2::254]/hook"));
    CHECK(refused("https://[2002:a9fe:a9fe::1]/hook"));  // the metadata address inside 6to4
    syndic::allow_private_webhooks(false);
    syndic::allow_loopback_webhooks(true);
    CHECK_FALSE(refused("http://127.0.0.1:8080/hook"));
    CHECK_FALSE(refused("http://localhost:8080/hook"));
    CHECK(refused("https://10.0.0.5/hook"));
    syndic::allow_loopback_webhooks(false);
}

}  // TEST_SUITE

}  // namespace webhook_queue_test
