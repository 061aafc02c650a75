// The replacement policies alone, on one set of 4 ways, by hand: ways filled 0, 1, 2, 3 in
// that order, then way 0 hit.
#include <catch2/catch.hpp>

#include <vector>

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

TEST_CASE("replacement: LRU of 16 ways in one word, by hand", "[cache]") {
    auto r = make_replacement("lru", 2, 16);
    for (uint32_t w = 0; w < 16; ++w) r->fill(1, w);
    CHECK(r->victim(1) == 0);
    r->touch(1, 0);  // use order 1 .. 15, 0
    CHECK(r->victim(1) == 1);
    r->touch(1, 15);  // the most recent way used again: order unchanged
    r->touch(1, 1);   // use order 2 .. 14, 0, 15, 1
    CHECK(r->victim(1) == 2);
    r->invalidate(1, 9);
    CHECK(r->victim(1) == 9);
    CHECK(r->victim(0) == 15);  // the other set, never used: way 15 last
}

TEST_CASE("replacement: LRU in one word evicts as the stamps do", "[cache]") {
    // Same uses on both; every way filled first, so the stamps have no ties.
    for (uint32_t ways : {1u, 2u, 3u, 4u, 7u, 15u, 16u}) {
        auto rank = make_replacement("lru", 3, ways);
        LruPolicy stamp(3, ways);
        uint64_t x = 88172645463325252ull;
        for (uint32_t set = 0; set < 3; ++set)
            for (uint32_t w = 0; w < ways; ++w) rank->fill(set, w), stamp.fill(set, w);
        for (int i = 0; i < 20000; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const uint32_t set = uint32_t(x % 3), way = uint32_t((x >> 8) % ways);
            if ((x >> 20) % 4 == 0) {  // a miss: the victim refilled
                const uint32_t v = stamp.victim(set);
                REQUIRE(rank->victim(set) == v);
                rank->fill(set, v), stamp.fill(set, v);
            } else {
                rank->touch(set, way), stamp.touch(set, way);
            }
        }
        for (uint32_t set = 0; set < 3; ++set) {
            CHECK(rank->victim(set) == stamp.victim(set));
            std::vector<uint32_t> a(ways), b(ways);
            rank->order(set, ways, a.data());
            stamp.order(set, ways, b.data());
            CHECK(a == b);  // the whole eviction order, not only its head
        }
    }
}

TEST_CASE("replacement: FIFO's eviction order is the fill order, hits or not", "[cache]") {
    auto r = make_replacement("fifo", 1, 4);
    fill_then_hit_0(*r);
    r->fill(0, 0);  // way 0 filled again: the newest
    uint32_t order[4];
    r->order(0, 4, order);
    CHECK(order[0] == 1);
    CHECK(order[1] == 2);
    CHECK(order[2] == 3);
    CHECK(order[3] == 0);
}
