// DRAM controller latencies worked out by hand from the timing set
// (HBM2 defaults of dram_params.h; core and memory clock both 1 GHz, so a
// core cycle is a memory cycle). Row miss: RCD + CL + BURST = 12 + 17 + 2 = 31.
// Row hit: CL + BURST = 19. Row conflict: RP + RCD + CL + BURST = 45.
#include <catch2/catch.hpp>
#include <systemc>

#include "models/dram/dram.h"

using namespace dcusim;

namespace {

struct Access {
    Cycle at;
    uint64_t addr;
    bool write = false;
    uint32_t size = 32;
};

// Issues each access at its cycle and records when it is answered.
struct Tester : sc_core::sc_module, MemResponder {
    sc_core::sc_port<MemTargetIf> mem;
    std::vector<Access> script;
    std::vector<MemRequest> reqs;
    std::vector<Cycle> done;
    const Clock& clk;
    Tester(sc_core::sc_module_name n, std::vector<Access> s, const Clock& c)
        : sc_module(n), script(std::move(s)), reqs(script.size()), done(script.size(), 0), clk(c) {
        SC_HAS_PROCESS(Tester);
        SC_THREAD(drive);
    }
    void drive() {
        for (size_t i = 0; i < script.size(); ++i) {
            if (script[i].at > clk.now()) wait(clk.until(script[i].at));
            MemRequest& r = reqs[i];
            r.op = script[i].write ? trace::Op::Store : trace::Op::Load;
            r.addr = script[i].addr;
            r.size = script[i].size;
            r.issue = clk.now();
            r.reply_to = this;
            r.tag = i;
            mem->mem_request(r);
        }
    }
    void mem_response(MemRequest& r) override { done[r.tag] = r.done; }
};

struct Run {
    std::vector<Cycle> done;
    StatMap stats;
};

Run run(std::vector<Access> script, DramParams p = {}) {
    p.clock_mhz = 1000;
    p.latency_cycles = 0;  // the latencies worked out by hand leave out the controller and PHY (167 by default)
    static Clock core(1000);
    auto* dram = new Dram("dram", p, core);
    auto* t = new Tester("tester", std::move(script), core);
    t->mem(*dram);
    sc_core::sc_start();
    Run r{t->done, {}};
    dram->report(r.stats);
    return r;
}

constexpr uint64_t kOtherRow = 1 << 20;  // same channel, bank group and bank, next row

// A refresh every 100 cycles, 50 long (tRFC), so that a short script meets some.
DramParams refreshing() {
    DramParams p;
    p.t.REFI = 100;
    p.t.RFC = 50;
    return p;
}

}  // namespace

TEST_CASE("row miss, row hit and row conflict latencies", "[sim][dram]") {
    DramParams p;
    p.t.REFI = 0;
    auto r = run({{0, 0}, {100, 32}, {200, kOtherRow}}, p);
    CHECK(r.done[0] == 31);        // ACT 0, RD 12, data 29-31
    CHECK(r.done[1] == 100 + 19);  // RD at once
    CHECK(r.done[2] == 200 + 45);  // PRE 200, ACT 214, RD 226
    CHECK(r.stats.at("dram.row_misses") == 1);
    CHECK(r.stats.at("dram.row_hits") == 1);
    CHECK(r.stats.at("dram.row_conflicts") == 1);
    CHECK(r.stats.at("dram.read_bytes") == 96);
}

TEST_CASE("tFAW holds the fifth activate", "[sim][dram]") {
    DramParams p;
    p.t.REFI = 0;
    p.t.FAW = 30;
    // Channel 0, bank groups 0-3 bank 0, then bank group 0 bank 1 (chunks of 256 B, 64 channels).
    auto r = run({{0, 0}, {0, 64 * 256}, {0, 128 * 256}, {0, 192 * 256}, {0, 256 * 256}}, p);
    // ACTs at 0, 4, 8 (tRRD_S), the first RD wins the tie at 12, ACT 13; the fifth
    // ACT waits for 0 + tFAW = 30, its RD at 42, data until 61.
    CHECK(r.done[0] == 31);
    CHECK(r.done[1] == 4 + 31);
    CHECK(r.done[2] == 8 + 31);
    CHECK(r.done[3] == 13 + 31);
    CHECK(r.done[4] == 61);
}

TEST_CASE("refresh closes the banks and stalls the next access", "[sim][dram]") {
    DramParams p = refreshing();
    // Bank group 1: the refresh must close a bank other than the first.
    auto r = run({{0, 64 * 256}, {105, 64 * 256 + 32}}, p);
    CHECK(r.done[0] == 31);
    // The channel is idle when the refresh falls due at 100, so it refreshes then,
    // not when the next access comes: PRE 100 (tRAS from the ACT at 0 is past),
    // REF at 114 (tRP), banks closed until 164. The access at 105 waits: ACT 164,
    // RD 176, data until 195.
    CHECK(r.done[1] == 195);
    CHECK(r.stats.at("dram.refreshes") == 1);
    CHECK(r.stats.at("dram.precharges") == 1);
    CHECK(r.stats.at("dram.row_misses") == 2);
}

TEST_CASE("an idle channel's refresh over before the next access costs it nothing", "[sim][dram]") {
    DramParams p = refreshing();
    // As above, but the access comes at 170, after the refresh (100-164): a row miss.
    auto r = run({{0, 64 * 256}, {170, 64 * 256 + 32}}, p);
    CHECK(r.done[1] == 170 + 31);
    CHECK(r.stats.at("dram.refreshes") == 1);
}

TEST_CASE("an idle channel catches up on several refreshes and the last one still holds the banks", "[sim][dram]") {
    DramParams p = refreshing();
    // Idle from 31 to 220, channel 0's refreshes fall due at 100 and 200. The first closes the
    // open bank (PRE 100, REF 114, over at 164); the second finds the banks closed and refreshes
    // at 200, so no row opens before 250: ACT 250, RD 262, data until 281. (Refreshing only
    // when the access came, as before, gave 301.)
    auto r = run({{0, 64 * 256}, {220, 64 * 256 + 32}}, p);
    CHECK(r.done[1] == 281);
    CHECK(r.stats.at("dram.refreshes") == 2);
    CHECK(r.stats.at("dram.precharges") == 1);
}

TEST_CASE("refreshes count in the interval they fall in, idle channels included", "[sim][dram]") {
    DramParams p = refreshing();
    static Clock core(1000);
    p.clock_mhz = 1000;
    p.latency_cycles = 0;  // as run() has it
    auto* dram = new Dram("dram_settle", p, core);
    auto* t = new Tester("tester_settle", {{0, 0}}, core);
    t->mem(*dram);
    sc_core::sc_start(sc_core::sc_time(1000, sc_core::SC_NS));  // one access, then idle until cycle 1000
    StatMap before, after;
    dram->report(before);
    dram->settle();
    dram->report(after);
    CHECK(t->done[0] == 31);
    // No channel had work after cycle 12, so none woke for a refresh.
    CHECK(before.at("dram.refreshes") == 0);
    // Channel c's refreshes fall due at 100 + c * 100 / 64 (integer), then every 100; an idle
    // channel refreshes when one falls due. Those due by 1000: channel 0 (first due 100) has 10,
    // channels 1-63 (101-198) 9 each: 10 + 63 x 9 = 577.
    CHECK(after.at("dram.refreshes") == 577);
    CHECK(after.at("dram.reads") == 1);
}

TEST_CASE("a write then a read of the same bank: tWTR", "[sim][dram]") {
    DramParams p;
    p.t.REFI = 0;
    auto r = run({{0, 0, true}, {0, 32}}, p);
    // ACT 0; WR at tRCDWR 6, data 13-15; RD no earlier than 15 + tWTR 8 = 23
    // (and tRCD 12): data until 23 + 19 = 42.
    CHECK(r.done[0] == 6 + 7 + 2);
    CHECK(r.done[1] == 42);
    CHECK(r.stats.at("dram.write_bytes") == 32);
    CHECK(r.stats.at("dram.writes") == 1);
}

TEST_CASE("a 128-byte read: four bursts to one row, back to back", "[sim][dram]") {
    DramParams p;
    p.t.REFI = 0;
    auto r = run({{0, 0, false, 128}}, p);
    // ACT 0; RD at 12, 15, 18, 21 (tCCD_L 3: one bank group); data until 21 + 17 + 2 = 40.
    CHECK(r.done[0] == 40);
    CHECK(r.stats.at("dram.reads") == 4);
    CHECK(r.stats.at("dram.row_misses") == 1);
    CHECK(r.stats.at("dram.row_hits") == 3);
}

// Row 0 of bank 0 is open from the read at 0 (ACT 0, RD 12). At 100 come a
// 128-byte read X of another row of bank 0 (4 bursts), then a 32-byte read Y
// of the open row. The FR-FCFS window counts bursts, not requests.
const std::vector<Access> kWindowScript = {{0, 0}, {100, kOtherRow, false, 128}, {100, 64}};

// Runs the script with a window of `queue_depth` bursts and checks when X and
// Y are answered and how the five bursts after the first fared.
void check_window(uint32_t queue_depth, Cycle x_done, Cycle y_done, uint64_t hits, uint64_t conflicts) {
    DramParams p;
    p.t.REFI = 0;
    p.queue_depth = queue_depth;
    const Run r = run(kWindowScript, p);
    CHECK(r.done[1] == x_done);
    CHECK(r.done[2] == y_done);
    CHECK(r.stats.at("dram.row_hits") == hits);
    CHECK(r.stats.at("dram.row_conflicts") == conflicts);
}

TEST_CASE("FR-FCFS window of 5 bursts: Y is in it and hits the open row", "[sim][dram]") {
    // RD Y at 100; X: PRE at 104 (tRTP), ACT 118, RD 130 133 136 139.
    check_window(5, 139 + 19, 100 + 19, 4, 1);
}

TEST_CASE("FR-FCFS window of 4 bursts: only X's bursts are in it, so X goes first", "[sim][dram]") {
    // X: PRE 100, ACT 114, RD 126 129 132 135; Y: PRE 142 (tRAS), ACT 156, RD 168.
    check_window(4, 135 + 19, 168 + 19, 3, 2);
}
