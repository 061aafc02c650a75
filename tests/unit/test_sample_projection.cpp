// The projection of a sampled kernel's sums and the L2 states it waits on (sim/sample_projection.h),
// and when skipping stops to measure again (sim/sample_regime.h): fed counter snapshots by hand.
#include <catch2/catch.hpp>

#include "sim/sample_projection.h"
#include "sim/sample_regime.h"

using namespace dcusim;

TEST_CASE("sampling: the L2 counts as stationary once full within the tolerance", "[sample]") {
    // 1,000 lines, tolerance 5 %: 900 -> 940 lines over 10 workgroups grows 4 a workgroup, full
    // within 15 of 100 more: filling. 940 -> 949: 9 more at 0.9 a workgroup, full after 57 more.
    // 940 -> 950: 950 >= 95 % of 1,000, as full as the tolerance asks.
    SampleProjection p;
    p.mark(0, 0, {}, 900);
    p.mark(1, 10, {}, 940);
    p.mark(2, 20, {}, 949);
    p.mark(3, 30, {}, 950);
    CHECK_FALSE(p.stationary(0, 1, 10, 100, 1000, 0.05));
    CHECK(p.stationary(0, 1, 10, 10, 1000, 0.05));  // at 4 a workgroup: 980 lines at the end
    CHECK_FALSE(p.stationary(1, 2, 10, 100, 1000, 0.05));
    CHECK(p.stationary(1, 3, 10, 100, 1000, 0.05));
    CHECK_FALSE(p.stationary(1, 3, 10, 100, 1000, 0.04));  // 960 needed
}

TEST_CASE("sampling: the L2's dirty data must have reached its limit, or stay short of it, and not drain", "[sample]") {
    // Lines full (1,000 of 1,000). Dirty limit 500 sectors, a slack of 8 (a line's 4 sectors in
    // each of 2 slices): 300 -> 340 over 10 workgroups, 4 a workgroup, reaches 500 within 40 of
    // 100 more: not yet. 340 -> 492 (500 - 8): at the limit. 400 -> 370: drains by 7.5 %, more
    // than 5 % (the launch's dirty data written back once): not stationary; 400 -> 390 (2.5 %) is.
    SampleProjection p;
    p.mark(0, 0, {}, 1000, 300);
    p.mark(1, 10, {}, 1000, 340);
    p.mark(2, 20, {}, 1000, 492);
    p.mark(3, 30, {}, 1000, 400);
    p.mark(4, 40, {}, 1000, 370);
    p.mark(5, 50, {}, 1000, 390);
    CHECK_FALSE(p.stationary(0, 1, 10, 100, 1000, 0.05, 500, 8));
    CHECK(p.stationary(0, 1, 10, 30, 1000, 0.05, 500, 8));  // 340 + 120 = 460 at the end
    CHECK(p.stationary(1, 2, 10, 100, 1000, 0.05, 500, 8));
    CHECK_FALSE(p.stationary(1, 2, 10, 100, 1000, 0.05, 500, 7));
    CHECK_FALSE(p.stationary(3, 4, 10, 100, 1000, 0.05, 500, 8));
    CHECK(p.stationary(3, 5, 10, 100, 1000, 0.05, 500, 8));
    CHECK(p.stationary(0, 1, 10, 100, 1000, 0.05));  // no dirty limit: lines alone
}

TEST_CASE("sampling: the DRAM traffic is steady by bytes per cycle, bytes under the tolerance's share untested", "[sample]") {
    // Windows of 70, 130, 70, 130 cycles reading 100 bytes a cycle: 7,000, 13,000, ... bytes a window
    // (mean 10,000, sd 3,464: 3.182 x 3,464 / 2 = 5,511 > 500, and 2 pairs are fewer than 3) but 100
    // a cycle in each: steady. Writes of 0, 300, 0, 100 bytes (400 of 40,400, under 5 %: 2,020) are
    // not tested; 0, 1,200, 0, 1,200 (2,400 of 42,400, over 2,120) are, and vary.
    auto marks = [](const Cycle* at, const double* written) {
        SampleProjection p;
        double read = 0, wrote = 0;
        for (uint64_t i = 0; i < 5; ++i) {
            if (i > 0) read += 100.0 * double(at[i] - at[i - 1]), wrote += written[i - 1];
            p.mark(i, at[i], {{"dram.read_bytes", read}, {"dram.write_bytes", wrote}}, 0);
        }
        return p;
    };
    const Cycle at[5] = {0, 70, 200, 270, 400};
    const double few[4] = {0, 300, 0, 100}, more[4] = {0, 1200, 0, 1200};
    CHECK(marks(at, few).traffic_steady(0, 4, 0.05));
    CHECK_FALSE(marks(at, more).traffic_steady(0, 4, 0.05));
    // The same reads in windows of 100 cycles (a rate that changes per cycle: 70, 130, 70, 130).
    const Cycle even[5] = {0, 100, 200, 300, 400};
    SampleProjection p;
    const double read[5] = {0, 7000, 20000, 27000, 40000};
    for (uint64_t i = 0; i < 5; ++i) p.mark(i, even[i], {{"dram.read_bytes", read[i]}}, 0);
    CHECK_FALSE(p.traffic_steady(0, 4, 0.05));
}

TEST_CASE("sampling: warmed, the dirty data may drain by up to a third of the tolerance of the DRAM traffic", "[sample]") {
    // Over marks 0 to 1 the DRAM moves 50,000 + 14,000 bytes; 5 % of that is 3,200 bytes, and a
    // third of it 1,066.7 bytes: 33 sectors of 32 (1,056 bytes) may drain, 34 (1,088) may not;
    // growing always may.
    SampleProjection p;
    p.mark(0, 0, {}, 0, 1000);
    p.mark(1, 10, {{"dram.read_bytes", 50000}, {"dram.write_bytes", 14000}}, 0, 967);
    p.mark(2, 20, {{"dram.read_bytes", 50000}, {"dram.write_bytes", 14000}}, 0, 966);
    p.mark(3, 30, {{"dram.read_bytes", 60000}, {"dram.write_bytes", 14000}}, 0, 2000);
    CHECK(p.drain_small(0, 1, 0.05, 32));
    CHECK_FALSE(p.drain_small(0, 2, 0.05, 32));
    CHECK(p.drain_small(2, 3, 0.05, 32));
}

TEST_CASE("sampling: a sum the warming counted replaces its projection", "[sample]") {
    // 10 workgroups over the span: 100 DRAM bytes and 40 requests each. 5 are skipped: +200 requests
    // projected; the DRAM bytes are the 70 the warming counted, not 500.
    SampleProjection p;
    p.mark(0, 0, {{"dram.read_bytes", 0}, {"l2.requests", 0}}, 0);
    p.mark(1, 10, {{"dram.read_bytes", 1000}, {"l2.requests", 400}}, 0);
    p.steady(0, 1, 10);
    p.skipped(5);
    p.counted("dram.read_bytes", 70);
    StatMap m{{"dram.read_bytes", 3000}, {"l2.requests", 1200}};
    p.apply(m);
    CHECK(m["dram.read_bytes"] == 3070);
    CHECK(m["l2.requests"] == 1400);
}

TEST_CASE("sample regime: the L2 full, or the warmed traffic moved, then settled", "[sample]") {
    // Windows of 10 workgroups, tolerance 5 %, a floor of 32 bytes a window, 16 windows at most.
    SampleRegime r(0.05, 32, 16);
    L2Look look;
    r.steady(look);
    auto window = [&](double per_workgroup) {
        look.workgroups += 10;
        look.traffic += uint64_t(per_workgroup * 10);
        return r.changed(look);
    };
    // 100 bytes a workgroup: the first 3 windows are the base; nothing moves.
    for (int i = 0; i < 5; ++i) CHECK_FALSE(window(100));
    // Now 150: the last 3 windows' mean against 100 by more than 4 x 5 % of the larger: 116.7 is not
    // (16.7 <= 23.3), 133.3 is (33.3 > 26.7): moved, a window on to see it settle; then 150, 150, 150
    // within 5 % of their mean: measure again.
    CHECK_FALSE(window(150));
    CHECK_FALSE(window(150));
    CHECK(window(150));

    // The L2 becoming full moves it at once; the traffic is settled (100 x 3) a window later.
    r.steady(look);
    for (int i = 0; i < 3; ++i) CHECK_FALSE(window(100));
    look.full = true;
    CHECK_FALSE(window(100));
    CHECK(window(100));

    // Full, then a transient that never settles (100 and 200 in turn): measured again 16 windows on.
    look.full = false;
    r.steady(look);
    look.full = true;
    int waited = 0;
    while (!window(waited % 2 ? 100 : 200)) ++waited;
    CHECK(waited == 15);

    // A move under the floor is none: 0 to 3 bytes a workgroup is 30 bytes a window.
    look.full = false;
    r.steady(look);
    for (int i = 0; i < 3; ++i) CHECK_FALSE(window(0));
    for (int i = 0; i < 20; ++i) CHECK_FALSE(window(3));
}

TEST_CASE("sample regime: skipping goes on while older dirty data drains", "[sample]") {
    // Windows of 10 workgroups and 1,000 DRAM bytes, tolerance 5 %, sectors of 32 bytes. The L2 becomes
    // full; its traffic is settled at once, but its dirty data drains by 100 sectors a window for two
    // windows: 3,200 bytes a window, 3 times dearer than its share, against 5 % of the last 3 windows'
    // 3,000 bytes (150). Skipping stops only once 3 windows have drained no more than that: 0 sectors.
    auto run = [](const uint64_t* dirty, size_t n) {
        SampleRegime r(0.05, 32, 16);
        L2Look look;
        look.dirty = 1000;
        r.steady(look);
        std::vector<bool> out;
        for (size_t i = 0; i < n; ++i) {
            look.workgroups += 10, look.traffic += 1000, look.full = i >= 3, look.dirty = dirty[i];
            out.push_back(r.changed(look));
        }
        return out;
    };
    const uint64_t draining[8] = {1000, 1000, 1000, 900, 800, 800, 800, 800};
    CHECK(run(draining, 8) == std::vector<bool>{false, false, false, false, false, false, false, true});
    // One sector drained (32 x 3 = 96 <= 150) is settled at the second window after the change; two
    // (192) are not, until they leave the last 3 windows.
    const uint64_t one[5] = {1000, 1000, 1000, 999, 999}, two[7] = {1000, 1000, 1000, 998, 998, 998, 998};
    CHECK(run(one, 5) == std::vector<bool>{false, false, false, false, true});
    CHECK(run(two, 7) == std::vector<bool>{false, false, false, false, false, false, true});
}
