// Tag array with LRU: hit/miss sequences in a tiny cache, by hand.
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
