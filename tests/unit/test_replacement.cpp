// The replacement policies alone, on one set of 4 ways, by hand: ways filled 0, 1, 2, 3 in
// that order, then way 0 hit.
#include <catch2/catch.hpp>

#include "models/cache/replacement.h"

using namespace dcusim;

namespace {
void fill_then_hit_0(ReplacementPolicy& r) {
    for (uint32_t w = 0; w < 4; ++w) r.fill(0, w);
    r.touch(0, 0);
}
}  // namespace

TEST_CASE("replacement: LRU evicts the least recently used way", "[cache]") {
    auto r = make_replacement("lru", 1, 4);
    fill_then_hit_0(*r);
    CHECK(r->victim(0) == 1);  // use order 1, 2, 3, 0
}

TEST_CASE("replacement: FIFO evicts the way filled first, hits or not", "[cache]") {
    auto r = make_replacement("fifo", 1, 4);
    fill_then_hit_0(*r);
    CHECK(r->victim(0) == 0);
    r->fill(0, 0);  // way 0 filled again: now the newest
    CHECK(r->victim(0) == 1);
}

TEST_CASE("replacement: tree pseudo-LRU follows the bits, not the true order", "[cache]") {
    // Three bits: the root (pair 0-1 or pair 2-3), then one bit in each pair. After the fills
    // every bit points left (the last use, way 3, was right, then right): victim way 0.
    auto r = make_replacement("plru", 1, 4);
    for (uint32_t w = 0; w < 4; ++w) r->fill(0, w);
    CHECK(r->victim(0) == 0);
    // The hit on way 0 points the root right and pair 0-1 to way 1; pair 2-3 still points to
    // way 2, used before way 3: victim way 2, where true LRU would take way 1.
    r->touch(0, 0);
    CHECK(r->victim(0) == 2);
}

TEST_CASE("replacement: an invalidated way goes first under LRU", "[cache]") {
    auto r = make_replacement("lru", 1, 4);
    fill_then_hit_0(*r);
    r->invalidate(0, 3);
    CHECK(r->victim(0) == 3);
}
