// Mock neighbours for testing one unit alone (tests/sim/test_<unit>.cpp).
#pragma once

#include <systemc>

#include <algorithm>
#include <vector>

#include "models/common/clock.h"
#include "models/common/request.h"

namespace dcusim::test {

// Above the unit: records the cycle each answer arrives, by the request's tag (0 to n-1).
struct AnswerLog : MemResponder {
    const Clock& clk;
    std::vector<Cycle> answered;
    AnswerLog(const Clock& c, size_t n) : clk(c), answered(n, 0) {}
    void mem_response(MemRequest& r) override { answered[r.tag] = clk.now(); }
};

// A memory below the unit: answers each request `latency` cycles after it leaves (its issue
// cycle), in the order they fall due, and records when each left.
struct FixedMemory : sc_core::sc_module, MemTargetIf, WaveMemIf {
    const Clock& clk;
    Cycle latency;
    std::vector<MemRequest*> pending;
    std::vector<Cycle> issued;
    std::vector<trace::Op> ops;
    sc_core::sc_event wake_;
    FixedMemory(sc_core::sc_module_name n, const Clock& c, Cycle l) : sc_module(n), clk(c), latency(l) {
        SC_HAS_PROCESS(FixedMemory);
        SC_THREAD(answer);
    }
    void mem_request(MemRequest& r) override {
        issued.push_back(r.issue);
        ops.push_back(r.op);
        r.done = r.issue + latency;
        pending.push_back(&r);
        wake_.notify(sc_core::SC_ZERO_TIME);
    }
    Cycle wave_request(MemRequest& r) override {
        mem_request(r);
        return kAnswerLater;
    }
    void answer() {
        for (;;) {
            if (pending.empty()) wait(wake_);
            MemRequest* first = pending.front();
            for (MemRequest* r : pending)
                if (r->done < first->done) first = r;
            if (first->done > clk.now()) {
                wait(clk.until(first->done), wake_);  // or sooner, for a request due earlier
                continue;
            }
            pending.erase(std::find(pending.begin(), pending.end(), first));
            if (first->reply_to) first->reply_to->mem_response(*first);
        }
    }
};

// An LDS beside a CU: every access is back 10 cycles after it issues.
struct MockLds : sc_core::sc_module, WaveMemIf {
    explicit MockLds(sc_core::sc_module_name n) : sc_module(n) {}
    Cycle wave_request(MemRequest& r) override { return r.issue + 10; }
};

// A constant cache beside a CU that takes nothing: every load goes the vector path.
struct MockConst : sc_core::sc_module, WaveMemIf {
    explicit MockConst(sc_core::sc_module_name n) : sc_module(n) {}
    Cycle wave_request(MemRequest&) override { return kNotHere; }
};

}  // namespace dcusim::test
