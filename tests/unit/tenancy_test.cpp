#include "fixture.hpp"

using namespace syndic::test;

TEST_SUITE("tenancy") {

TEST_CASE("get_fraction_sum starts at zero") {
    Fixture fx;
    const auto sum = fx.call("get_fraction_sum");
    CHECK(sum["sum"] == 0);
    CHECK(sum["unitCount"] == 0);
}

}
