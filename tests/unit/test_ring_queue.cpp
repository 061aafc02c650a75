// RingQueue's contract: FIFO order across wrap-around and growth, and
// insert/erase in the middle keep the order of the rest.
#include <catch2/catch.hpp>

#include "models/common/ring_queue.h"

using namespace dcusim;

namespace {
std::vector<int> items(const RingQueue<int>& q) {
    std::vector<int> v;
    for (size_t i = 0; i < q.size(); ++i) v.push_back(q[i]);
    return v;
}
}  // namespace

TEST_CASE("RingQueue: FIFO order survives wrap-around and growth", "[ring]") {
    RingQueue<int> q;
    // Fill 6 of the first 8 slots, drain 5: the head is at slot 5.
    for (int i = 0; i < 6; ++i) q.push_back(i);
    for (int i = 0; i < 5; ++i) q.pop_front();
    // 7 more wrap around the end of the 8-slot ring; 3 more force growth to 16.
    for (int i = 6; i < 16; ++i) q.push_back(i);
    REQUIRE(q.size() == 11);
    CHECK(q.front() == 5);
    CHECK(q.back() == 15);
    CHECK(items(q) == std::vector<int>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST_CASE("RingQueue: insert and erase in the middle keep the others in order", "[ring]") {
    RingQueue<int> q;
    for (int i = 0; i < 6; ++i) q.push_back(i * 10);
    q.pop_front();
    q.pop_front();  // 20 30 40 50, head at slot 2
    q.insert(1, 25);
    CHECK(items(q) == std::vector<int>{20, 25, 30, 40, 50});
    q.insert(5, 55);  // at the back
    q.insert(0, 15);  // at the front
    CHECK(items(q) == std::vector<int>{15, 20, 25, 30, 40, 50, 55});
    q.erase(1);  // front half: the front moves up
    CHECK(items(q) == std::vector<int>{15, 25, 30, 40, 50, 55});
    q.erase(4);  // back half: the back moves down
    CHECK(items(q) == std::vector<int>{15, 25, 30, 40, 55});
    q.erase(0);
    CHECK(items(q) == std::vector<int>{25, 30, 40, 55});
    CHECK(q.front() == 25);
}
