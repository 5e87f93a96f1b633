#include <doctest/doctest.h>

#include "core/fraction.hpp"

using syndic::Fraction;

TEST_SUITE("protocol") {

TEST_CASE("fractions are exact") {
    Fraction sum;
    for (int i = 0; i < 3; ++i) sum += Fraction::from_percent(33.333333);
    sum += Fraction::from_percent(0.000001);
    CHECK(sum == Fraction::percent(100) - Fraction::from_units(0));
    CHECK(Fraction::from_percent(33.333333).to_string() == "33.333333");
}

}
