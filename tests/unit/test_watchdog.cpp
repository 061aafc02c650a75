// The watchdog's decision on samples of (seconds, work, resident bytes).
#include <catch2/catch.hpp>

#include "sim/watchdog.h"

using namespace dcusim;

TEST_CASE("no progress for the stall time stops the run", "[watchdog]") {
    ProgressJudge j(1000, 2.0);
    CHECK(j.verdict(0.0, 5, 10) == "");   // first sample: the clock starts
    CHECK(j.verdict(1.5, 5, 10) == "");   // 1.5 s without a change: under 2
    CHECK(j.verdict(1.9, 7, 10) == "");   // work moved at 1.9: the clock restarts
    CHECK(j.verdict(3.8, 7, 10) == "");   // 1.9 s since
    CHECK(j.verdict(3.9, 7, 10).rfind("made no progress for 2.0 s (sim.stall_seconds)", 0) == 0);
}

TEST_CASE("the stall clock waits for the kernel's first CU step", "[watchdog]") {
    ProgressJudge j(1000, 2.0);
    CHECK(j.verdict(0.0, 5, 10, false) == "");  // the kernel is still being read and built
    CHECK(j.verdict(9.0, 5, 10, false) == "");  // 9 s of that: not a stall
    CHECK(j.verdict(9.5, 5, 10) == "");         // first step: the clock starts here
    CHECK(j.verdict(11.4, 5, 10) == "");        // 1.9 s since
    CHECK(j.verdict(11.5, 5, 10).rfind("made no progress for 2.0 s", 0) == 0);
}

TEST_CASE("memory past the limit stops the run", "[watchdog]") {
    ProgressJudge j(64u << 20, 30);
    CHECK(j.verdict(0, 0, 64u << 20) == "");  // at the limit: fine
    CHECK(j.verdict(0.1, 1, (64u << 20) + (3u << 20)) == "uses 67 MiB of memory, past sim.memory_limit_bytes (64 MiB)");
}
