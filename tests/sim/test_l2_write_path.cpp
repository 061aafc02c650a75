// The L2 slice's path to DRAM writes (l2.writeback_cycles), by hand: one slice of one set of two 128-byte
// lines (LRU), a lookup a cycle, in front of a recording memory that answers 50 cycles after a request
// leaves. Whole-line stores to lines 0 and 1 dirty both ways; stores to lines 2 and 3 (one cycle apart,
// from cycle 10) evict 0 and 1. With the path free, the two write-backs leave when their lookups evict
// them (cycles 10 and 11); with writeback_cycles = 20 the second waits for the first's slot to end (30).
// A one-word store to line 4 at cycle 12 then evicts line 2 and leaves its sector written in part,
// which is fetched to be completed: both DRAM requests queue behind the write-backs (30 + 20 = 50, then 70).
// The fetch is answered 50 cycles after it leaves, and the completed sector is written back then (the
// path is free again from 90).
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "models/l2/l2_slice.h"

using namespace dcusim;

namespace {

struct Store {
    Cycle at;
    uint64_t addr;
    uint32_t size;
};

// Sends each store at its cycle.
struct Cus : sc_core::sc_module, MemResponder {
    sc_core::sc_port<MemTargetIf> l2;
    std::vector<Store> script;
    std::vector<MemRequest> reqs;
    const Clock& clk;
    Cus(sc_core::sc_module_name n, std::vector<Store> s, const Clock& c)
        : sc_module(n), script(std::move(s)), reqs(script.size()), clk(c) {
        SC_HAS_PROCESS(Cus);
        SC_THREAD(drive);
    }
    void drive() {
        for (size_t i = 0; i < script.size(); ++i) {
            if (script[i].at > clk.now()) wait(clk.until(script[i].at));
            MemRequest& r = reqs[i];
            r.op = trace::Op::Store;
            r.addr = script[i].addr;
            r.size = script[i].size;
            r.issue = clk.now();
            r.reply_to = this;
            l2->mem_request(r);
        }
    }
    void mem_response(MemRequest&) override {}
};

// Records when each request leaves the slice (its issue cycle) and answers it 50 cycles later.
struct Memory : sc_core::sc_module, MemTargetIf {
    struct Sent {
        bool write;
        uint64_t addr;
        Cycle issue;
    };
    std::vector<Sent> sent;
    std::vector<MemRequest*> pending;
    sc_core::sc_event answer_;
    const Clock& clk;
    Memory(sc_core::sc_module_name n, const Clock& c) : sc_module(n), clk(c) {
        SC_HAS_PROCESS(Memory);
        SC_THREAD(answer);
    }
    void mem_request(MemRequest& r) override {
        sent.push_back({r.op == trace::Op::Store, r.addr, r.issue});
        r.done = std::max(clk.now(), r.issue) + 50;
        pending.push_back(&r);
        answer_.notify(sc_core::SC_ZERO_TIME);
    }
    void answer() {
        for (;;) {
            wait(answer_);
            while (!pending.empty()) {
                Cycle first = pending.front()->done;
                for (MemRequest* r : pending) first = std::min(first, r->done);
                if (first > clk.now()) wait(clk.until(first));
                std::vector<MemRequest*> later;
                for (MemRequest* r : pending)
                    if (r->done <= clk.now()) r->reply_to->mem_response(*r);
                    else later.push_back(r);
                pending.swap(later);
            }
        }
    }
};

std::vector<Memory::Sent> run(uint32_t writeback_cycles) {
    static Clock clk(1000);
    L2Params p;
    p.geometry = {256, 128, 2};
    p.interleave_bytes = 128;
    p.mshrs = 4;
    p.partial_fetch = true;
    p.writeback_cycles = writeback_cycles;
    auto* slice = new L2Slice("slice", p, clk);
    auto* memory = new Memory("memory", clk);
    slice->dram(*memory);
    auto* cus = new Cus("cus", {{0, 0, 128}, {1, 128, 128}, {10, 256, 128}, {11, 384, 128}, {12, 512, 4}}, clk);
    cus->l2(*slice);
    sc_core::sc_start();
    return memory->sent;
}

}  // namespace

TEST_CASE("l2.writeback_cycles: the second write-back and a read-modify-write fetch wait for the write path",
          "[sim][memory]") {
    const auto sent = run(20);
    REQUIRE(sent.size() == 5);
    CHECK((sent[0].write && sent[0].addr == 0 && sent[0].issue == 10));
    CHECK((sent[1].write && sent[1].addr == 128 && sent[1].issue == 30));
    // Line 4's store evicts line 2 (written back at 50) and fetches the rest of its first sector (at 70).
    CHECK((sent[2].write && sent[2].addr == 256 && sent[2].issue == 50));
    CHECK((!sent[3].write && sent[3].addr == 512 && sent[3].issue == 70));
    CHECK((sent[4].write && sent[4].addr == 512 && sent[4].issue == 120));
}

TEST_CASE("l2.writeback_cycles 0: write-backs leave when their lines are evicted", "[sim][memory]") {
    const auto sent = run(0);
    REQUIRE(sent.size() == 5);
    CHECK(sent[0].issue == 10);
    CHECK(sent[1].issue == 11);
    CHECK(sent[2].issue == 12);
    CHECK(sent[3].issue == 12);
    CHECK(sent[4].issue == 62);
}
