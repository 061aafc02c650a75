#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <random>

#include "../../models/common/divisor.h"

using dcusim::Divisor;

TEST_CASE("Divisor: hand-worked quotients and remainders", "[divisor]") {
    // 96 L2 channels: chunk 1000 is 10 x 96 + 40.
    CHECK(Divisor(96).div(1000) == 10);
    CHECK(Divisor(96).mod(1000) == 40);
    // 188 DRAM channels: 188 x 5 = 940, 187 short of the next multiple.
    CHECK(Divisor(188).div(1127) == 5);
    CHECK(Divisor(188).mod(1127) == 187);
    CHECK(Divisor(188).div(1128) == 6);
    CHECK(Divisor(188).mod(1128) == 0);
    // A power of two: a shift and a mask.
    CHECK(Divisor(256).div(0x1234) == 0x12);
    CHECK(Divisor(256).mod(0x1234) == 0x34);
    // 0 is taken as 1.
    CHECK(Divisor(0).div(77) == 77);
}

TEST_CASE("Divisor: the reciprocal's quotient is the divide's, below and above its limit", "[divisor]") {
    std::mt19937_64 rng(12345);
    for (uint64_t d : std::initializer_list<uint64_t>{3, 5, 6, 7, 12, 47, 96, 100, 188, 640, 5120, 1000003,
                                                      (uint64_t(1) << 32) + 1, ~uint64_t(0)}) {
        const Divisor v(d);
        const uint64_t limit = ~uint64_t(0) / d;
        // Each multiple, one less and one more; around the limit; random values of every width.
        for (uint64_t q : std::initializer_list<uint64_t>{0, 1, 2, 1000, limit / 2, limit - 1, limit})
            for (uint64_t x : std::initializer_list<uint64_t>{q * d, q * d + d - 1, q * d + 1, q * d - 1}) {
                INFO("d " << d << " x " << x);
                CHECK(v.div(x) == x / d);
                CHECK(v.mod(x) == x % d);
            }
        for (int i = 0; i < 20000; ++i) {
            const uint64_t x = rng() >> (i % 64);
            INFO("d " << d << " x " << x);
            REQUIRE(v.div(x) == x / d);
            REQUIRE(v.mod(x) == x % d);
        }
    }
}
