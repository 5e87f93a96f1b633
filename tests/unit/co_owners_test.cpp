#include "fixture.hpp"

using namespace syndic::test;

TEST_SUITE("co-owners") {

TEST_CASE("create_co_owner") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    SUBCASE("happy path") {
        const auto c = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}, {"isPrimary", true}});
        CHECK(c["firstName"] == "Marie");
        CHECK(c["unitId"] == unit["id"]);
        CHECK(c["isPrimary"] == true);
        CHECK(c["fractionPercent"] == 0);
    }
    SUBCASE("INVALID_EMAIL") {
        CHECK_REFUSED(fx, "INVALID_EMAIL", "create_co_owner",
                      (json{{"unitId", unit["id"]}, {"firstName", "A"}, {"lastName", "B"}, {"email", "not-an-email"}}));
    }
}

}
