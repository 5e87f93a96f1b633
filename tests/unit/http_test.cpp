// http/: the REST route table read from the schemas (matching, 404 and 405, arguments from the
// path, query string and body), plan limits (token buckets), and the Origin and Host checks that
// protect a local server from DNS rebinding. The bridge itself is tested through real HTTP
// (tests/http/).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "http/access_policy.hpp"
#include "http/address_share.hpp"
#include "http/body_coding.hpp"
#include "http/message.hpp"
#include "http/pages.hpp"
#include "http/rate_limiter.hpp"
#include "http/rest_routes.hpp"
#include "modules/modules.hpp"
#include "tools/registry.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace http_test {

using namespace syndic;
using namespace syndic::http;
using nlohmann::json;

namespace {

const ToolRegistry& registry() {
    static const ToolRegistry r(all_tool_handlers());
    return r;
}

std::string tool_at(const RestRoutes& routes, const std::string& method, const std::string& path) {
    const auto found = routes.find(method, path);
    return found.match ? found.match->tool->name : "";
}

DomainError refusal(const RestRoutes& routes, const std::string& method, const std::string& path, const Pairs& query,
                    const std::string& body) {
    const auto found = routes.find(method, path);
    REQUIRE(found.match);
    try {
        routes.arguments(*found.match, query, body);
    } catch (const DomainError& e) {
        return e;
    }
    FAIL("expected the request to be refused");
    return DomainError("", "");
}

}  // namespace

TEST_SUITE("http") {

TEST_CASE("every tool has one REST route, and the interface's routes are those of 4.2") {
    const RestRoutes routes(registry());
    std::set<std::string> seen;
    for (const auto& tool : registry().tools()) {
        CHECK(seen.insert(tool.http.method + " " + tool.http.path).second);
        std::string concrete = tool.http.path;
        for (auto open = concrete.find('{'); open != std::string::npos; open = concrete.find('{'))
            concrete.replace(open, concrete.find('}', open) - open + 1, "x1");
        CHECK_MESSAGE(tool_at(routes, tool.http.method, concrete) == tool.name, tool.name);
    }
    // Interface 4.2, paths below the base URL (which ends in /api).
    CHECK(tool_at(routes, "GET", "/co-owners") == "list_co_owners");
    CHECK(tool_at(routes, "POST", "/co-owners") == "create_co_owner");
    CHECK(tool_at(routes, "PATCH", "/co-owners/abc") == "update_co_owner");
    CHECK(tool_at(routes, "DELETE", "/co-owners/abc") == "delete_co_owner");
    CHECK(tool_at(routes, "GET", "/units") == "list_units");
    CHECK(tool_at(routes, "POST", "/units") == "create_unit");
    CHECK(tool_at(routes, "PATCH", "/units/abc") == "update_unit");
    CHECK(tool_at(routes, "DELETE", "/units/abc") == "delete_unit");
    CHECK(tool_at(routes, "GET", "/meetings") == "list_meetings");
    CHECK(tool_at(routes, "POST", "/meetings") == "create_meeting");
    CHECK(tool_at(routes, "PATCH", "/meetings/abc") == "update_meeting");
    CHECK(tool_at(routes, "POST", "/meetings/abc/resolutions") == "add_resolution");
    CHECK(tool_at(routes, "GET", "/declaration/fraction-sum") == "get_fraction_sum");
    // Every create_ tool answers 201; which other tools do (attach_document stores a new document,
    // adjourn_meeting creates the reconvened meeting) is pinned in each module's catalogue.json,
    // checked by registry_test.cpp, so a new module needs no line here.
    for (const auto& tool : registry().tools())
        if (tool.name.rfind("create_", 0) == 0) CHECK_MESSAGE(tool.http.success_status == 201, tool.name);
}

TEST_CASE("matching: literal segments first, 405 lists the methods, unknown paths are 404") {
    const RestRoutes routes(registry());
    CHECK(tool_at(routes, "POST", "/co-owners/bulk") == "bulk_create_co_owners");
    CHECK(tool_at(routes, "GET", "/co-owners/bulk") == "get_co_owner");  // an id that happens to read "bulk"
    CHECK(tool_at(routes, "GET", "/units/") == "list_units");
    const auto wrong_method = routes.find("PUT", "/co-owners");
    CHECK_FALSE(wrong_method.match);
    CHECK(std::set<std::string>(wrong_method.allowed.begin(), wrong_method.allowed.end()) == std::set<std::string>{"GET", "POST"});
    const auto votes = routes.find("PUT", "/meetings/m1/resolutions/r1/votes");
    REQUIRE(votes.match);
    CHECK(votes.match->path_arguments == Pairs{{"meetingId", "m1"}, {"resolutionId", "r1"}});
    for (const char* path : {"/nothing", "/co-owners/a/b/c", "/", "", "/co-owners//restore", "//co-owners"}) {
        const auto none = routes.find("GET", path);
        CHECK_FALSE(none.match);
        CHECK_MESSAGE(none.allowed.empty(), path);
    }
}

TEST_CASE("arguments: the query string typed by the schema, the body as JSON, the path over both") {
    const RestRoutes routes(registry());
    SUBCASE("GET: integers and booleans from the query, the rest as text") {
        const auto found = routes.find("GET", "/co-owners");
        const auto args = routes.arguments(*found.match, {{"page", "2"}, {"pageSize", "10"}, {"includeArchived", "true"}, {"search", "123"}}, "");
        CHECK(args == json{{"page", 2}, {"pageSize", 10}, {"includeArchived", true}, {"search", "123"}});
    }
    SUBCASE("GET: a value of the wrong type stays text, so validation names it") {
        const auto found = routes.find("GET", "/co-owners");
        const auto args = routes.arguments(*found.match, {{"page", "two"}, {"includeArchived", "yes"}}, "");
        CHECK(args == json{{"page", "two"}, {"includeArchived", "yes"}});
        try {
            registry().check_arguments("list_co_owners", args);
            FAIL("expected VALIDATION_FAILED");
        } catch (const DomainError& e) {
            CHECK(e.code() == codes::validation_failed);
        }
    }
    SUBCASE("GET: a query value or a path segment that is not UTF-8 once decoded is refused at its field") {
        auto e = refusal(routes, "GET", "/co-owners", {{"search", "a\xFF"}}, "");
        CHECK(e.code() == codes::validation_failed);
        CHECK(e.field() == "/search");
        CHECK(refusal(routes, "GET", "/co-owners/\xC0\xAF", {}, "").field() == "/id");
        CHECK(refusal(routes, "DELETE", "/co-owners/\xED\xA0\x80", {}, "").field() == "/id");
    }
    SUBCASE("GET: a repeated key, a body, or the path given again are refused") {
        auto e = refusal(routes, "GET", "/co-owners", {{"page", "1"}, {"page", "2"}}, "");
        CHECK(e.code() == codes::validation_failed);
        CHECK(e.field() == "/page");
        e = refusal(routes, "GET", "/co-owners", {}, "{\"page\":1}");
        CHECK(e.code() == codes::validation_failed);
        e = refusal(routes, "GET", "/co-owners/abc", {{"id", "other"}}, "");
        CHECK(e.field() == "/id");
        const auto same = routes.find("GET", "/co-owners/abc");
        CHECK(routes.arguments(*same.match, {{"id", "abc"}}, "") == json{{"id", "abc"}});
    }
    SUBCASE("POST: the body, with the path's values added") {
        const auto found = routes.find("POST", "/meetings/m1/resolutions");
        const auto args = routes.arguments(*found.match, {}, R"({"title":"Budget","majorityRequired":"simple"})");
        CHECK(args == json{{"meetingId", "m1"}, {"title", "Budget"}, {"majorityRequired", "simple"}});
        const auto empty = routes.find("POST", "/declaration/rebalance");
        CHECK(routes.arguments(*empty.match, {}, "") == json::object());
        CHECK(routes.arguments(*empty.match, {}, " \r\n") == json::object());
    }
    SUBCASE("POST: a query string, a contradicting path value, bad JSON and a non-object are refused") {
        auto e = refusal(routes, "POST", "/meetings/m1/minutes", {{"draft", "true"}}, "{}");
        CHECK(e.code() == codes::validation_failed);
        CHECK(e.field() == "/draft");
        e = refusal(routes, "POST", "/meetings/m1/resolutions", {}, R"({"meetingId":"m2","title":"x","majorityRequired":"simple"})");
        CHECK(e.field() == "/meetingId");
        CHECK(refusal(routes, "POST", "/co-owners", {}, "{\"firstName\":").code() == codes::invalid_json);
        CHECK(refusal(routes, "POST", "/co-owners", {}, "[1,2]").code() == codes::invalid_json);
        CHECK(refusal(routes, "POST", "/co-owners", {}, "\"text\"").code() == codes::invalid_json);
        // nlohmann's parser would take a raw NUL for the end of the text and ignore what follows.
        CHECK(refusal(routes, "POST", "/co-owners", {}, std::string("{}\0{\"x\"", 7)).code() == codes::invalid_json);
        CHECK(refusal(routes, "POST", "/co-owners", {}, std::string("{}\0", 3)).code() == codes::invalid_json);
        std::string many = R"({"coOwners":[{})";
        for (int i = 0; i < 200000; ++i) many += ",{}";
        CHECK(refusal(routes, "POST", "/co-owners/bulk", {}, many + "]}").code() == codes::invalid_json);
        CHECK(refusal(routes, "POST", "/co-owners", {}, std::string(100000, '[') + std::string(100000, ']')).code() ==
              codes::invalid_json);
    }
}

TEST_CASE("rate plans are read from N/min, N/s or N/h") {
    CHECK(RatePlan::parse("120/min").requests == 120);
    CHECK(RatePlan::parse("120/min").period_seconds == 60);
    CHECK(RatePlan::parse("5/s").period_seconds == 1);
    CHECK(RatePlan::parse("1000/h").period_seconds == 3600);
    CHECK(RatePlan::parse("off").unlimited());
    CHECK(RatePlan::parse("0").unlimited());
    CHECK(RatePlan::parse("30/min").describe() == "30/min");
    for (const char* bad : {"", "60", "60/day", "-1/min", "x/min", "1.5/min", "60/ min", "60/min/"})
        CHECK_THROWS_AS(RatePlan::parse(bad), std::invalid_argument);
}

TEST_CASE("a token bucket per credential: N at once, then one more as time refills it") {
    RateLimiter limiter(RatePlan::parse("3/min"));
    CHECK_FALSE(limiter.take("key a", 0));
    CHECK_FALSE(limiter.take("key a", 0));
    CHECK_FALSE(limiter.take("key a", 1));
    const auto wait = limiter.take("key a", 1);
    REQUIRE(wait);
    CHECK(*wait == 19);  // one token every 20 s; a third of one came in the first second
    CHECK_FALSE(limiter.take("key b", 1));  // another key has its own bucket
    CHECK(limiter.take("key a", 19.9));
    CHECK_FALSE(limiter.take("key a", 20.1));
    CHECK(limiter.take("key a", 20.2));
    CHECK_FALSE(limiter.take("key a", 1000));  // full again, not more than full
    CHECK_FALSE(limiter.take("key a", 1000));
    CHECK_FALSE(limiter.take("key a", 1000));
    CHECK(limiter.take("key a", 1000));
    RateLimiter unlimited(RatePlan::parse("off"));
    for (int i = 0; i < 1000; ++i) REQUIRE_FALSE(unlimited.take("key", 0));
}

TEST_CASE("URLs: scheme, host, port and path") {
    auto url = parse_url("http://127.0.0.1:8080/api/");
    REQUIRE(url);
    CHECK(url->origin() == "http://127.0.0.1:8080");
    CHECK(url->path == "/api");
    url = parse_url("HTTPS://Syndic.Example.org/syndic/api");
    REQUIRE(url);
    CHECK(url->origin() == "https://syndic.example.org");
    CHECK(url->port == 443);
    CHECK(url->path == "/syndic/api");
    url = parse_url("http://[::1]:9000/api");
    REQUIRE(url);
    CHECK(url->authority() == "[::1]:9000");
    for (const char* bad : {"ftp://x/api", "127.0.0.1:8080/api", "http://", "http://host:99999/api", "http://host/api?x=1", "http://a b/"})
        CHECK_MESSAGE(!parse_url(bad), bad);
}

TEST_CASE("Origin and Host: the base URL's, loopback's, and the extras; nothing else") {
    const AccessPolicy local(*parse_url("http://127.0.0.1:8080/api"), "127.0.0.1", 8080, {"https://app.example.org"}, {"syndic.lan"});
    for (const char* origin : {"http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "https://app.example.org",
                               "HTTP://LOCALHOST:8080"})
        CHECK_MESSAGE(local.origin_allowed(origin), origin);
    for (const char* origin : {"http://evil.example.com", "http://localhost:9999", "https://127.0.0.1:8080", "null", "",
                               "http://127.0.0.1:8080.evil.com", "http://localhost:8080/path"})
        CHECK_MESSAGE(!local.origin_allowed(origin), origin);
    for (const char* host : {"127.0.0.1:8080", "localhost", "localhost:8080", "[::1]:8080", "syndic.lan:8080", "LOCALHOST:8080"})
        CHECK_MESSAGE(local.host_allowed(host), host);
    for (const char* host : {"evil.example.com", "evil.example.com:8080", "", "localhost.evil.com", "127.0.0.1@evil"})
        CHECK_MESSAGE(!local.host_allowed(host), host);

    // Behind a public name, loopback origins are not trusted by default.
    const AccessPolicy public_server(*parse_url("https://syndic.example.org/api"), "0.0.0.0", 8080, {}, {});
    CHECK(public_server.origin_allowed("https://syndic.example.org"));
    CHECK_FALSE(public_server.origin_allowed("http://localhost:8080"));
    CHECK(public_server.host_allowed("syndic.example.org"));
    CHECK_FALSE(public_server.host_allowed("203.0.113.7:8080"));

    CHECK_THROWS_AS(AccessPolicy(*parse_url("http://127.0.0.1:8080/api"), "127.0.0.1", 8080, {"app.example.org"}, {}),
                    std::invalid_argument);
    CHECK_THROWS_AS(AccessPolicy(*parse_url("http://127.0.0.1:8080/api"), "127.0.0.1", 8080, {"https://x.org/path"}, {}),
                    std::invalid_argument);
}

TEST_CASE("a request target: the path decoded, '+' a space in the query only, bad escapes kept") {
    std::string path;
    std::multimap<std::string, std::string> params;
    split_target("/api/a%20b+c?x=1+2&y=%C3%A9&x=3&flag&bad=%zz%4", path, params);
    CHECK(path == "/api/a b+c");
    CHECK(params.count("x") == 2);
    CHECK(params.find("x")->second == "1 2");
    CHECK(params.find("y")->second == "\xC3\xA9");
    CHECK(params.find("flag")->second.empty());
    CHECK(params.find("bad")->second == "%zz%4");
    CHECK(url_decode("%0D%0A", false) == "\r\n");
}

TEST_CASE("answers: a header with a line break is dropped; headers compare without case") {
    Response res;
    res.set_header("X-Ok", "1");
    res.set_header("X-Split", "a\r\nSet-Cookie: evil=1");
    res.set_content("{}", "application/json");
    res.set_content("<p>", "text/html");
    CHECK(res.has_header("x-ok"));
    CHECK_FALSE(res.has_header("X-Split"));
    CHECK(res.get_header_value("content-type") == "text/html");
    CHECK(std::count_if(res.headers.begin(), res.headers.end(), [](const auto& h) { return h.first == "Content-Type"; }) == 1);
    Request req;
    req.headers.emplace("content-LENGTH", "3");
    CHECK(req.get_header_value("Content-Length") == "3");
}

TEST_CASE("request bodies: gzip and deflate inflated within the limit; others refused") {
    Request plain;
    plain.body = "abc";
    std::string problem;
    CHECK(decode_body(plain, 10, problem) == 0);
    CHECK(plain.body == "abc");
    // gzip of "hello" (from Python's gzip.compress(b"hello", mtime=0)).
    const unsigned char hello_gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
                                      0xc9, 0x07, 0x00, 0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00};
    Request gz;
    gz.headers.emplace("Content-Encoding", "gzip");
    gz.body.assign(reinterpret_cast<const char*>(hello_gz), sizeof hello_gz);
    CHECK(decode_body(gz, 10, problem) == 0);
    CHECK(gz.body == "hello");
    gz.body.assign(reinterpret_cast<const char*>(hello_gz), sizeof hello_gz);
    CHECK(decode_body(gz, 4, problem) == 413);
    gz.body = "not gzip";
    CHECK(decode_body(gz, 100, problem) == 400);
    Request br;
    br.headers.emplace("Content-Encoding", "br");
    CHECK(decode_body(br, 100, problem) == 415);
}

TEST_CASE("the consent page words every scope a tool requires, in French and in English") {
    for (const auto& scope : registry().all_scopes()) {
        CAPTURE(scope);
        const auto fr = scope_description("fr", scope), en = scope_description("en", scope);
        CHECK(fr != scope);
        CHECK(en != scope);
        CHECK(fr != en);
    }
    CHECK(scope_description("en", "read:audit").find("audit trail") != std::string::npos);
}

}  // TEST_SUITE

TEST_CASE("connections are counted per IPv4 address and per IPv6 /64, a mapped IPv4 address as itself") {
    CHECK(address_share_key("203.0.113.7") == "203.0.113.7");
    CHECK(address_share_key("::ffff:203.0.113.7") == "203.0.113.7");
    CHECK(address_share_key("2001:db8:1:2::1") == "2001:db8:1:2::/64");
    CHECK(address_share_key("2001:DB8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64");
    CHECK(address_share_key("2001:db8:1:3::1") != address_share_key("2001:db8:1:2::1"));
    CHECK(address_share_key("::1") == "0:0:0:0::/64");
    CHECK(address_share_key("") == "");
    CHECK(canonical_address("::FFFF:10.0.0.1") == "10.0.0.1");
    CHECK(canonical_address("2001:DB8::0:1") == "2001:db8::1");
    CHECK(canonical_address("127.0.0.2") == "127.0.0.2");
    CHECK_FALSE(canonical_address("proxy.example.org"));
    CHECK_FALSE(canonical_address("10.0.0.0/8"));
}

TEST_CASE("a request is counted for its peer, or for the client a trusted proxy names in X-Forwarded-For") {
    const std::vector<std::string> proxies{"127.0.0.1", "10.0.0.2"};
    // Not from a proxy: the header is the client's own claim, never read.
    CHECK(request_client("203.0.113.7", {"198.51.100.1"}, proxies) == "203.0.113.7");
    CHECK(request_client("2001:db8:1:2::9", {}, proxies) == "2001:db8:1:2::/64");
    // From a proxy: the last hop that is not a proxy, as a share key.
    CHECK(request_client("127.0.0.1", {"198.51.100.1"}, proxies) == "198.51.100.1");
    CHECK(request_client("::ffff:127.0.0.1", {"forged, 198.51.100.1, 10.0.0.2"}, proxies) == "198.51.100.1");
    CHECK(request_client("127.0.0.1", {"192.0.2.1", "198.51.100.1"}, proxies) == "198.51.100.1");
    CHECK(request_client("127.0.0.1", {" [2001:db8:5:6::1]:443 "}, proxies) == "2001:db8:5:6::/64");
    CHECK(request_client("127.0.0.1", {"198.51.100.1:5000"}, proxies) == "198.51.100.1");
    // A proxy that names no usable client is counted as itself.
    CHECK(request_client("127.0.0.1", {}, proxies) == "127.0.0.1");
    CHECK(request_client("127.0.0.1", {"unknown"}, proxies) == "127.0.0.1");
    CHECK(request_client("127.0.0.1", {"198.51.100.1, garbage"}, proxies) == "127.0.0.1");
    CHECK(request_client("127.0.0.1", {"10.0.0.2"}, proxies) == "127.0.0.1");
}

}  // namespace http_test
