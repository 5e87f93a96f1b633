// Exact shares (decisions 5): a percentage held as integer millionths of a percent, so sums never
// drift; converted to and from the decimal numbers users see (up to 6 decimals).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

namespace syndic {

class Fraction {
public:
    static constexpr std::int64_t units_per_percent = 1'000'000;

    constexpr Fraction() = default;
    static constexpr Fraction from_units(std::int64_t units) { return Fraction(units); }
    static Fraction from_percent(double percent) {
        return Fraction(static_cast<std::int64_t>(std::llround(percent * units_per_percent)));
    }
    static constexpr Fraction percent(std::int64_t whole) { return Fraction(whole * units_per_percent); }

    constexpr std::int64_t units() const { return units_; }
    // The nearest double to the exact decimal value (both operands are exact and IEEE division
    // rounds correctly), which JSON writers print with at most six decimals.
    double to_percent() const {
        return static_cast<double>(units_) / units_per_percent;
    }
    std::string to_string() const;  // "33.333333", "100", "-0.5"

    constexpr auto operator<=>(const Fraction&) const = default;
    constexpr Fraction operator+(Fraction o) const { return Fraction(units_ + o.units_); }
    constexpr Fraction operator-(Fraction o) const { return Fraction(units_ - o.units_); }
    constexpr Fraction& operator+=(Fraction o) { units_ += o.units_; return *this; }
    constexpr Fraction& operator-=(Fraction o) { units_ -= o.units_; return *this; }

private:
    constexpr explicit Fraction(std::int64_t units) : units_(units) {}
    std::int64_t units_ = 0;
};

}  // namespace syndic
