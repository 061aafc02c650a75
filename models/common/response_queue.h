// Answers requests at their cycle: a min-heap of (cycle, request) and one
// SC_METHOD that wakes at the earliest and calls each request's responder.
// Memory-side units own one for their outgoing answers.
#pragma once

#include <systemc>

#include <queue>
#include <vector>

#include "request.h"

namespace dcusim {

class ResponseQueue : public sc_core::sc_module {
public:
    ResponseQueue(sc_core::sc_module_name name, const Clock& clk) : sc_module(name), clk_(clk) {
        SC_HAS_PROCESS(ResponseQueue);
        SC_METHOD(run);
        sensitive << wake_;
        dont_initialize();
    }
    // Sets req.done = at and calls req.reply_to at that cycle (none if null).
    void deliver(MemRequest& req, Cycle at) {
        req.done = at;
        if (!req.reply_to) return;
        bool earliest = due_.empty() || at < due_.top().at;
        due_.push({at, seq_++, &req});
        if (earliest) wake_.notify(clk_.until(at));
    }

private:
    struct Due {
        Cycle at;
        uint64_t seq;
        MemRequest* req;
        bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    void run() {
        const Cycle now = clk_.now();
        while (!due_.empty() && due_.top().at <= now) {
            MemRequest* r = due_.top().req;
            due_.pop();
            r->reply_to->mem_response(*r);
        }
        if (!due_.empty()) wake_.notify(clk_.until(due_.top().at));
    }
    const Clock& clk_;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
    uint64_t seq_ = 0;
    sc_core::sc_event wake_;
};

}  // namespace dcusim
