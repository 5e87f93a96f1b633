// What the core tests (tests/unit/core*_test.cpp) share: an instant from its ISO 8601 text, which
// must parse. They stand below the registry, so they take neither fixture.hpp nor its database.
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "core/clock.hpp"

namespace syndic::test::core_fixture {

inline Instant at(const std::string& iso) {
    auto t = parse_iso_instant(iso);
    REQUIRE_MESSAGE(t.has_value(), "could not parse " << iso);
    return *t;
}

}  // namespace syndic::test::core_fixture
