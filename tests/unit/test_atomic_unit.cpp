// The L2's atomic unit (models/l2/atomic_unit.h) and the L1's count of an atomic's lanes per line
// (models/l1/atomic_lanes.h), on figures worked out by hand.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/l1/atomic_lanes.h"
#include "models/l2/atomic_unit.h"

using namespace dcusim;
using dcusim::test::wave_of;

TEST_CASE("atomic unit: sector passes share the unit, one address's operations chain", "[atomic]") {
    AtomicUnit u(2, 3);  // 2 cycles a sector, 3 between two operations on one address
    // A line's 4 sectors in one pass: busy 10-18; its word's chain 10-13; done at the unit's 18.
    CHECK(u.execute(10, {0x100, 4, 1}) == 18);
    // 4 lanes on the same word: 1 sector + 3 more passes = 4 x 2 from 18 (to 26); the chain starts at
    // 18 (the word was free at 13), its 4th operation at 18 + 3 x 3 = 27, done 2 later: 29.
    CHECK(u.execute(10, {0x100, 1, 4}) == 29);
    // Another word goes in the time the chain leaves: the unit at 26-28.
    CHECK(u.execute(11, {0x200, 1, 1}) == 28);
    // The first word again: the unit is free at 28-30, but its chain lets it go at 18 + 4 x 3 = 30; done 32.
    CHECK(u.execute(12, {0x100, 1, 1}) == 32);
}

// The sequence above again, in order: each request takes the unit as it comes, and one whose word's chain
// is still busy holds it until its first operation may go.
TEST_CASE("atomic unit: in order, a request waiting on its word's chain holds the unit", "[atomic]") {
    AtomicUnit fifo(2, 3, 0, 0, true), free(2, 3);
    for (AtomicUnit* u : {&fifo, &free}) {
        CHECK(u->execute(10, {0x100, 4, 1}) == 18);  // as above: the unit 10-18, the chain free at 13
        CHECK(u->execute(10, {0x100, 1, 4}) == 29);  // the unit 18-26, the word's operations at 18, 21, 24, 27
        CHECK(u->execute(11, {0x200, 1, 1}) == 28);  // the unit 26-28
    }
    // The first word again at 28: its chain lets it go at 30. In order the unit waits with it, 30-32, and
    // the next request, on a free word, takes the unit at 32 (done 34); interleaved it went at 30 (done 32).
    CHECK(fifo.execute(12, {0x100, 1, 1}) == 32);
    CHECK(fifo.execute(12, {0x300, 1, 1}) == 34);
    CHECK(free.execute(12, {0x100, 1, 1}) == 32);
    CHECK(free.execute(12, {0x300, 1, 1}) == 32);
}

TEST_CASE("atomic unit: fractional rates kept in 1/1024 cycles, rounded up at the answer", "[atomic]") {
    AtomicUnit u(1.5, 0);
    CHECK(u.execute(0, {0x0, 1, 1}) == 2);  // 1.5
    CHECK(u.execute(0, {0x0, 1, 1}) == 3);  // 3.0
    CHECK(u.execute(0, {0x80, 1, 1}) == 5);  // 4.5
}

TEST_CASE("atomic unit: integer and floating-point atomics chain at their kind's cycles", "[atomic]") {
    using trace::AtomicKind;
    // 1 cycle a sector; between two operations on one address 2 cycles for an atomic of unknown kind,
    // 1.5 for int, 4 for float.
    AtomicUnit u(1, 2, 1.5, 4);
    // Float, one lane, one sector at 0: the unit 0-1; the word's chain lets the next go at 4; done at 1.
    CHECK(u.execute(0, {0xA0, 1, 1, AtomicKind::Float}) == 1);
    // The same word again: the unit 1-2, the operation waits for the chain until 4, done a sector later, 5.
    CHECK(u.execute(0, {0xA0, 1, 1, AtomicKind::Float}) == 5);
    // Three int lanes on another word: the unit 2-5; the chain 2, 3.5 and 5, the last done at 6 (at the
    // unknown kind's 2 apart it would be 7).
    CHECK(u.execute(0, {0xB0, 1, 3, AtomicKind::Int}) == 6);
    // Three lanes of unknown kind on a third word: the unit 5-8; the chain 5, 7 and 9, done at 10 (at
    // int's 1.5 apart, 9).
    CHECK(u.execute(0, {0xC0, 1, 3, AtomicKind::Unknown}) == 10);
    // A kind without a figure of its own takes the unknown kind's: int here chains 2 apart.
    AtomicUnit plain(1, 2, 0, 4);
    CHECK(plain.execute(0, {0xE0, 1, 3, AtomicKind::Int}) == 5);  // chain 0, 2, 4; done a sector later
}

TEST_CASE("atomic unit: with no rate and no chain it answers at once", "[atomic]") {
    AtomicUnit u(0, 0);
    CHECK_FALSE(u.active());
    CHECK(u.execute(7, {0x0, 4, 32}) == 7);
    CHECK(u.execute(7, {0x0, 4, 32}) == 7);
}

namespace {
std::vector<AtomicLanes> lanes_of(const std::string& stmt, uint32_t& extra) {
    auto w = wave_of({stmt}, 32, 32);
    std::vector<LineAccess> lines;
    coalesce(w.instrs.at(0), w, 128, 32, lines);
    std::vector<AtomicLanes> out;
    extra = atomic_lanes(w.instrs.at(0), w, 128, 32, 32, lines, out);
    return out;
}
}  // namespace

TEST_CASE("atomic lanes: a warp on one address, on a line's words, on 32 lines", "[atomic]") {
    uint32_t extra = 0;
    auto one = lanes_of("atom global 4 0 all affine 0x1008 0", extra);  // every lane on 0x1008
    REQUIRE(one.size() == 1);
    CHECK(one[0].same == 32);
    CHECK(one[0].offset == 8);
    CHECK(extra == 31);
    auto words = lanes_of("atom global 4 0 all affine 0x1000 4", extra);  // 32 words of one line
    REQUIRE(words.size() == 1);
    CHECK(words[0].same == 1);
    CHECK(words[0].offset == 0);
    CHECK(extra == 0);
    auto spread = lanes_of("atom global 4 0 all affine 0x1000 128", extra);  // a line each
    CHECK(spread.size() == 32);
    CHECK(spread[5].same == 1);
    CHECK(extra == 0);
}

TEST_CASE("atomic lanes: the busiest address of each line, its first lane's", "[atomic]") {
    uint32_t extra = 0;
    // Lanes 0-3: line 0x2000 words 0x2004, 0x2010, 0x2010, 0x2004; lanes 4-5: line 0x2080 both 0x2084.
    auto l = lanes_of("atom global 4 0 0x3f list 0x2004 0x2010 0x2010 0x2004 0x2084 0x2084", extra);
    REQUIRE(l.size() == 2);
    CHECK(l[0].same == 2);
    CHECK(l[0].offset == 4);  // 0x2004 and 0x2010 tie at 2: lane 0's comes first
    CHECK(l[1].same == 2);
    CHECK(l[1].offset == 4);
    CHECK(extra == 2);
}

// Rounds of several words (h100-atomicdups): round r takes one lane of every word with more than r and
// the sectors those words lie in. Line 0x3000, 32-byte sectors: word 0x3004 (sector 0) has 3 lanes,
// 0x3024 (sector 1) 2, 0x3064 (sector 3) 1. Round 1: sectors 0 and 1; round 2: sector 0. Later: 3.
TEST_CASE("atomic lanes: the rounds after the first take the sectors of the words left", "[atomic]") {
    uint32_t extra = 0;
    auto l = lanes_of("atom global 4 0 0x3f list 0x3004 0x3024 0x3004 0x3064 0x3024 0x3004", extra);
    REQUIRE(l.size() == 1);
    CHECK(l[0].same == 3);
    CHECK(l[0].later_sectors == 3);
    CHECK(extra == 2);
    // Two lanes on each of 16 words, side by side in sectors 0-1 (compact_2): one more round of both
    // sectors. Spread over all four (two lanes on every other word): one more round of four.
    CHECK(lanes_of("atom global 4 0 all affine 0x3000 2", extra)[0].later_sectors == 0);  // 64 B, no word twice
    CHECK(lanes_of("atom global 4 0 all list 0x3000 0x3000 0x3004 0x3004 0x3008 0x3008 0x300c 0x300c 0x3010 0x3010 "
                   "0x3014 0x3014 0x3018 0x3018 0x301c 0x301c 0x3020 0x3020 0x3024 0x3024 0x3028 0x3028 0x302c 0x302c "
                   "0x3030 0x3030 0x3034 0x3034 0x3038 0x3038 0x303c 0x303c",
                   extra)[0]
              .later_sectors == 2);
    CHECK(lanes_of("atom global 4 0 all list 0x3000 0x3000 0x3008 0x3008 0x3010 0x3010 0x3018 0x3018 0x3020 0x3020 "
                   "0x3028 0x3028 0x3030 0x3030 0x3038 0x3038 0x3040 0x3040 0x3048 0x3048 0x3050 0x3050 0x3058 0x3058 "
                   "0x3060 0x3060 0x3068 0x3068 0x3070 0x3070 0x3078 0x3078",
                   extra)[0]
              .later_sectors == 4);
    // One word of 32 lanes: 31 rounds of one sector, as the single-address passes always were.
    CHECK(lanes_of("atom global 4 0 all affine 0x3008 0", extra)[0].later_sectors == 31);
}

// The unit is busy a sector's cycles for each sector of every pass: 3 sectors in the first, 3 after.
TEST_CASE("atomic unit: a request's later passes cost their rounds' sectors", "[atomic]") {
    AtomicUnit u(2, 0);
    CHECK(u.execute(0, {0x3004, 3, 3, trace::AtomicKind::Unknown, 3}) == 12);  // (3 + 3) x 2
    CHECK(u.execute(0, {0x4004, 3, 3}) == 22);  // not given: a sector a pass, (3 + 2) x 2 from 12
}
