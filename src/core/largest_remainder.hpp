// Sharing an amount of cents exactly (catalogue §4.4, §4.5): in proportion to weights, each share
// rounded down and the cents left given one by one to the largest remainders, the first among
// equals; 128-bit products, since cents up to 10^14 times weights of millionths overflow 64 bits.
// The imputation of a payment (arts. 1572) and the apportionment of contributions (art. 1064) share it.
#pragma once
#include <cstdint>
#include <vector>

namespace syndic {

// `total` shared in proportion to `weights` (all 0: nothing shared); the shares add up to `total`.
std::vector<std::int64_t> largest_remainder(std::int64_t total, const std::vector<std::int64_t>& weights);

}  // namespace syndic
