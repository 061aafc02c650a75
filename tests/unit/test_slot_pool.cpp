// SlotPool's contract: dense indices from 0, last-freed first reuse, and
// references that stay valid while the pool grows past its chunk size.
#include <catch2/catch.hpp>

#include <vector>

#include "models/common/slot_pool.h"

using namespace dcusim;

TEST_CASE("SlotPool: indices are dense, freed slots come back last-freed first", "[pool]") {
    SlotPool<int> p;
    CHECK(p.acquire() == 0);
    CHECK(p.acquire() == 1);
    CHECK(p.acquire() == 2);
    p.release(0);
    p.release(2);
    CHECK(p.acquire() == 2);
    CHECK(p.acquire() == 0);
    CHECK(p.acquire() == 3);
}

TEST_CASE("SlotPool: references survive growth over several chunks", "[pool]") {
    SlotPool<long> p;
    const uint32_t first = p.acquire();
    long& r = p[first];
    r = 12345;
    // 1,000 slots span many chunks (chunks hold 64).
    std::vector<uint32_t> ids;
    for (int i = 0; i < 1000; ++i) {
        ids.push_back(p.acquire());
        p[ids.back()] = 1000 + i;
    }
    CHECK(&p[first] == &r);
    CHECK(r == 12345);
    CHECK(ids.back() == 1000);
    CHECK(p[64] == 1000 + 63);  // slot 64 (first of the second chunk) is the 64th acquired after slot 0
    CHECK(p[1000] == 1999);
}
