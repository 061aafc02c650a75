// The L2's sectors written in part, alone (models/l2/partial_sectors.h), by hand: 32-byte sectors of
// eight 4-byte words; by time, a 100-cycle delay; by capacity, two lines held.
#include <catch2/catch.hpp>

#include "models/l2/partial_sectors.h"

using namespace dcusim;

TEST_CASE("partial sectors: words of two stores complete a sector, which then falls due for nothing", "[l2]") {
    PartialSectors p(100, 0, 32);
    // Words 0, 2, 4, 6 of sector 0 (0x55): in part; its fetch falls due at 10 + 100.
    CHECK(p.store(5, 0x55, 0x1, 0, 10, {}) == 0);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().at == 110);
    CHECK(p.front().line_no == 5);
    CHECK(p.front().sectors == 0x1);
    // Words 1, 3, 5, 7 (0xaa): with the earlier ones all eight, sector 0 is whole; nothing more falls due.
    CHECK(p.store(5, 0xaa, 0x1, 0, 20, {}) == 0x1);
    p.pop();
    CHECK(p.empty());
}

TEST_CASE("partial sectors: a store completes what its words cover and leaves the rest due", "[l2]") {
    PartialSectors p(100, 0, 32);
    // Sectors 0 and 1 left in part; the words cover sector 1 (words 8-15) whole, sector 0 in part.
    CHECK(p.store(7, 0xff01, 0x3, 0, 0, {42, 3, 4, true}) == 0x2);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().sectors == 0x1);
    CHECK(p.front().origin.pc == 42);
    CHECK(p.front().origin.link);
    // Nothing left in part: no fetch falls due.
    p.pop();
    CHECK(p.store(7, 0, 0, 0, 5, {}) == 0);
    CHECK(p.empty());
}

TEST_CASE("partial sectors: a forgotten line's words do not complete its next sectors", "[l2]") {
    PartialSectors p(100, 0, 32);
    CHECK(p.store(9, 0x0f, 0x1, 0, 0, {}) == 0);
    p.forget(9);  // evicted
    CHECK(p.store(9, 0xf0, 0x1, 0, 1, {}) == 0);  // words 4-7 alone: still in part
    p.clear();
    CHECK(p.empty());
}

TEST_CASE("partial sectors: with restart, a later store in part puts the line's fetch back", "[l2]") {
    PartialSectors p(100, 0, 32, true);
    // Word 0 of sector 0 at cycle 10: due at 110. Word 1 at 60: not complete, due at 160 too.
    CHECK(p.store(5, 0x01, 0x1, 0, 10, {}) == 0);
    CHECK(p.store(5, 0x02, 0x1, 0, 60, {}) == 0);
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
    PartialSectors p(100, 0, 32);
    CHECK(p.store(5, 0x01, 0x1, 0, 10, {}) == 0);
    CHECK(p.store(5, 0x02, 0x1, 0, 60, {}) == 0);
    REQUIRE(p.front().at == 110);
    CHECK_FALSE(p.restarted(p.front()));
}

TEST_CASE("partial sectors by capacity: a third line held in part fetches the oldest's at once", "[l2]") {
    PartialSectors p(0, 2, 32);
    // Lines 1 and 2 each leave sector 0 in part (words 0-3): held, nothing due.
    CHECK(p.store(1, 0x0f, 0x1, 0, 10, {11, 0, 0, false}) == 0);
    CHECK(p.store(2, 0x0f, 0x1, 0, 20, {}) == 0);
    CHECK(p.empty());
    // Line 1 leaves sector 1 in part too: still two lines held.
    CHECK(p.store(1, 0xf00, 0x2, 0, 25, {}) == 0);
    CHECK(p.empty());
    // Line 3 is the third: line 1, the oldest, falls due now with both its sectors, on behalf of its first store.
    CHECK(p.store(3, 0x0f, 0x1, 0, 30, {}) == 0);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().at == 30);
    CHECK(p.front().line_no == 1);
    CHECK(p.front().sectors == 0x3);
    CHECK(p.front().origin.pc == 11);
    p.pop();
    CHECK(p.empty());
}

TEST_CASE("partial sectors by capacity: lines completed, filled or written whole leave room", "[l2]") {
    PartialSectors p(0, 2, 32);
    CHECK(p.store(1, 0x0f, 0x1, 0, 0, {}) == 0);
    CHECK(p.store(2, 0x0f, 0x1, 0, 1, {}) == 0);
    // Words 4-7 complete line 1's sector 0: one line held.
    CHECK(p.store(1, 0xf0, 0x1, 0, 2, {}) == 0x1);
    CHECK(p.store(3, 0x0f, 0x1, 0, 3, {}) == 0);
    CHECK(p.empty());
    // Line 2's sector comes in for a read, line 3's is written whole by a later store: none held.
    p.filled(2, 0x1);
    CHECK(p.store(3, 0, 0, 0x1, 4, {}) == 0);
    CHECK(p.store(4, 0x0f, 0x1, 0, 5, {}) == 0);
    CHECK(p.store(5, 0x0f, 0x1, 0, 6, {}) == 0);
    CHECK(p.empty());
    // Lines 4 and 5 held; line 4 evicted, then taken in again after line 5: line 5 is the oldest now.
    p.forget(4);
    CHECK(p.store(4, 0x0f, 0x1, 0, 7, {}) == 0);
    CHECK(p.store(6, 0x0f, 0x1, 0, 8, {}) == 0);
    REQUIRE_FALSE(p.empty());
    CHECK(p.front().line_no == 5);
    p.pop();
    CHECK(p.empty());
}
