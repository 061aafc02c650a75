// Tag array and its replacement policies: hit/miss sequences in a tiny cache, by hand.
#include <catch2/catch.hpp>

#include "models/cache/tag_array.h"

using namespace dcusim;

TEST_CASE("2-way LRU: the least recently used line is evicted", "[cache]") {
    // 2 sets x 2 ways x 64 B: lines 0, 2, 4 map to set 0.
    TagArray t(CacheGeometry{256, 64, 2}, make_replacement("lru", 2, 2));
    uint64_t ev = 99;
    CHECK_FALSE(t.lookup(0));
    CHECK_FALSE(t.fill(0, &ev));
    CHECK_FALSE(t.fill(2, &ev));
    CHECK(t.lookup(0));  // 0 is now most recent
    CHECK(t.fill(4, &ev));
    CHECK(ev == 2);
    CHECK(t.lookup(0));
    CHECK_FALSE(t.lookup(2));
    CHECK(t.lookup(4));
    CHECK_FALSE(t.lookup(1));  // set 1 untouched
    t.invalidate_all();
    CHECK_FALSE(t.lookup(0));
}

namespace {
// One set of 4 ways (4 lines of 64 B): lines A..E = 0..4 all map to it.
struct OneSet {
    explicit OneSet(const char* policy) : t(CacheGeometry{256, 64, 4}, make_replacement(policy, 1, 4)) {}
    uint64_t fill(uint64_t line) {  // the evicted line, or 99 when a free way took it
        uint64_t ev = 99;
        return t.fill(line, &ev) ? ev : 99;
    }
    TagArray t;
};
}  // namespace

TEST_CASE("Replacement after A B C D, a hit on A, then E: LRU evicts B", "[cache]") {
    OneSet s("lru");
    for (uint64_t l : {0, 1, 2, 3}) CHECK(s.fill(l) == 99);
    CHECK(s.t.lookup(0));
    CHECK(s.fill(4) == 1);
}

TEST_CASE("Replacement after A B C D, a hit on A, then E: FIFO evicts A, the first in", "[cache]") {
    OneSet s("fifo");
    for (uint64_t l : {0, 1, 2, 3}) CHECK(s.fill(l) == 99);
    CHECK(s.t.lookup(0));
    CHECK(s.fill(4) == 0);
    CHECK(s.fill(5) == 1);  // then B, still in fill order
}

TEST_CASE("Replacement after A B C D, a hit on A, then E: tree PLRU evicts C", "[cache]") {
    // Ways 0-3 hold A-D. After D (way 3) the root points left and the left node away from B (way 1):
    // to A. The hit on A (way 0) turns the root right, and the right node still points away from D:
    // to C (way 2), where true LRU would take B.
    OneSet s("plru");
    for (uint64_t l : {0, 1, 2, 3}) CHECK(s.fill(l) == 99);
    CHECK(s.t.lookup(0));
    CHECK(s.fill(4) == 2);
    // E went to way 2: root now left, left node away from A: B goes next.
    CHECK(s.fill(5) == 1);
}

TEST_CASE("Random replacement: repeatable, and every way is taken", "[cache]") {
    auto a = make_replacement("random", 1, 4), b = make_replacement("random", 1, 4);
    bool seen[4] = {};
    for (int i = 0; i < 64; ++i) {
        const uint32_t v = a->victim(0);
        CHECK(v == b->victim(0));  // same seed, same sequence: same inputs, same outputs
        REQUIRE(v < 4);
        seen[v] = true;
    }
    CHECK((seen[0] && seen[1] && seen[2] && seen[3]));
}

TEST_CASE("Hashed sets: lines a multiple of the sets apart spread, an aligned run keeps one line a set", "[cache]") {
    // 4 sets x 1 way x 64 B. Line n has r = n mod 4 and q = n / 4; its set is (r + H(q)) mod 4 with
    // H(q) the upper 32 bits of q x 0x9E3779B97F4A7C15 (mod 2^64): H(0) = 0, H(1) = 2654435769,
    // H(2) = 1013904242, H(3) = 3668340012, i.e. 0, 1, 2, 0 mod 4.
    CacheGeometry g{256, 64, 1};
    g.hashed_sets = true;
    TagArray t(g, make_replacement("lru", 4, 1));
    uint64_t ev = 99;
    // Lines 0, 4, 8 go to sets 0, 1, 2: all three stay (mod 4 they would share set 0).
    for (uint64_t l : {0, 4, 8}) CHECK_FALSE(t.fill(l, &ev));
    for (uint64_t l : {0, 4, 8}) CHECK(t.lookup(l));
    // Line 12 (q = 3) goes to set 0 and evicts line 0.
    CHECK(t.fill(12, &ev));
    CHECK(ev == 0);
    CHECK(t.lookup(4));
    CHECK(t.lookup(8));
    CHECK_FALSE(t.lookup(0));
    // Lines 20..23 (q = 5, H(5) = 387276959 = 3 mod 4) take sets 3, 0, 1, 2: each evicts that set's line.
    const uint64_t evicted[] = {99, 12, 4, 8};  // set 3 was empty
    for (uint64_t l = 20; l < 24; ++l) {
        ev = 99;
        t.fill(l, &ev);
        CHECK(ev == evicted[l - 20]);
    }
    for (uint64_t l = 20; l < 24; ++l) CHECK(t.lookup(l));
}

TEST_CASE("Unhashed sets: lines a multiple of the sets apart share one set", "[cache]") {
    TagArray t(CacheGeometry{256, 64, 1}, make_replacement("lru", 4, 1));
    uint64_t ev = 99;
    CHECK_FALSE(t.fill(0, &ev));
    CHECK(t.fill(4, &ev));
    CHECK(ev == 0);
    CHECK(t.fill(8, &ev));
    CHECK(ev == 4);
}

TEST_CASE("tags count the lines they hold", "[cache]") {
    // 256 bytes of 64-byte lines, 2 ways: 2 sets of 2.
    TagArray t(CacheGeometry{256, 64, 2}, make_replacement("lru", 2, 2));
    CHECK(t.valid_lines() == 0);
    uint64_t ev = 0;
    t.fill(0, &ev);
    t.fill(2, &ev);  // set 0, both ways
    t.fill(1, &ev);  // set 1
    CHECK(t.valid_lines() == 3);
    CHECK(t.fill(4, &ev));  // set 0 is full: line 0 (least recent) makes room, still 3 held
    CHECK(ev == 0);
    CHECK(t.valid_lines() == 3);
    t.invalidate_all();
    CHECK(t.valid_lines() == 0);
}
