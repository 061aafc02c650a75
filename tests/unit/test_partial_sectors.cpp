// The L2's sectors written in part, alone (models/l2/partial_sectors.h), by hand: 32-byte sectors of
// eight 4-byte words, a 100-cycle delay.
#include <catch2/catch.hpp>

#include "models/l2/partial_sectors.h"

using namespace dcusim;

TEST_CASE("partial sectors: words of two stores complete a sector, which then falls due for nothing", "[l2]") {
    PartialSectors p(100, 32);
    // Words 0, 2, 4, 6 of sector 0 (0x55): in part; its fetch falls due at 10 + 100.
    CHECK(p.store(5, 0x55, 0x1, 10, {}) == 0);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().at == 110);
    CHECK(p.front().line_no == 5);
    CHECK(p.front().sectors == 0x1);
    // Words 1, 3, 5, 7 (0xaa): with the earlier ones all eight, sector 0 is whole; nothing more falls due.
    CHECK(p.store(5, 0xaa, 0x1, 20, {}) == 0x1);
    p.pop();
    CHECK(p.empty());
}

TEST_CASE("partial sectors: a store completes what its words cover and leaves the rest due", "[l2]") {
    PartialSectors p(100, 32);
    // Sectors 0 and 1 left in part; the words cover sector 1 (words 8-15) whole, sector 0 in part.
    CHECK(p.store(7, 0xff01, 0x3, 0, {42, 3, 4, true}) == 0x2);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().sectors == 0x1);
    CHECK(p.front().origin.pc == 42);
    CHECK(p.front().origin.link);
    // Nothing left in part: no fetch falls due.
    p.pop();
    CHECK(p.store(7, 0, 0, 5, {}) == 0);
    CHECK(p.empty());
}

TEST_CASE("partial sectors: a forgotten line's words do not complete its next sectors", "[l2]") {
    PartialSectors p(100, 32);
    CHECK(p.store(9, 0x0f, 0x1, 0, {}) == 0);
    p.forget(9);  // evicted
    CHECK(p.store(9, 0xf0, 0x1, 1, {}) == 0);  // words 4-7 alone: still in part
    p.clear();
    CHECK(p.empty());
}

TEST_CASE("partial sectors: with restart, a later store in part puts the line's fetch back", "[l2]") {
    PartialSectors p(100, 32, true);
    // Word 0 of sector 0 at cycle 10: due at 110. Word 1 at 60: not complete, due at 160 too.
    CHECK(p.store(5, 0x01, 0x1, 10, {}) == 0);
    CHECK(p.store(5, 0x02, 0x1, 60, {}) == 0);
    REQUIRE(p.front().at == 110);
    // At 110 the line was stored to at 60: its fetch goes back to 60 + 100 = 160, once more.
    CHECK(p.restarted(p.front()));
    p.pop();
    REQUIRE(p.front().at == 160);
    // At 160 no store came after 60: the first entry falls due, as the second will (the slice finds
    // the sector fetched by then).
    CHECK_FALSE(p.restarted(p.front()));
    p.pop();
    REQUIRE(p.front().at == 160);
    CHECK_FALSE(p.restarted(p.front()));
    p.pop();
    CHECK(p.empty());
}

TEST_CASE("partial sectors: without restart, a fetch falls due a delay after the first store in part", "[l2]") {
    PartialSectors p(100, 32);
    CHECK(p.store(5, 0x01, 0x1, 10, {}) == 0);
    CHECK(p.store(5, 0x02, 0x1, 60, {}) == 0);
    REQUIRE(p.front().at == 110);
    CHECK_FALSE(p.restarted(p.front()));
}
