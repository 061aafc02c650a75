// Answers requests at their cycle, in (cycle, arrival) order: a unit of its
// clock's wake-up calendar that wakes at the earliest and calls each request's
// responder.
// Memory-side units own one for their outgoing answers. Most units answer
// after a fixed latency, so answers usually come in cycle order: those go to
// a FIFO, the rest to a min-heap, and the earlier of the two fronts goes first.
#pragma once

#include <systemc>

#include <deque>
#include <queue>
#include <vector>

#include "request.h"
#include "wake_calendar.h"

namespace dcusim {

class ResponseQueue : public sc_core::sc_module {
public:
    ResponseQueue(sc_core::sc_module_name name, const Clock& clk)
        : sc_module(name), clk_(clk), cal_(clk.calendar()), unit_(cal_.add([this] { run(); })) {}
    // Sets req.done = at and calls req.reply_to at that cycle (none if null).
    void deliver(MemRequest& req, Cycle at) {
        req.done = at;
        if (!req.reply_to) return;
        const bool earliest = empty() || at < front().at;
        const Due d{at, seq_++, &req};
        if (fifo_.empty() || at >= fifo_.back().at) fifo_.push_back(d);
        else heap_.push(d);
        if (earliest) cal_.wake(unit_, at);
    }

private:
    struct Due {
        Cycle at;
        uint64_t seq;
        MemRequest* req;
        bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    bool empty() const { return fifo_.empty() && heap_.empty(); }
    bool fifo_first() const { return heap_.empty() || (!fifo_.empty() && heap_.top() > fifo_.front()); }
    const Due& front() const { return fifo_first() ? fifo_.front() : heap_.top(); }
    void run() {
        const Cycle now = clk_.now();
        while (!empty() && front().at <= now) {
            MemRequest* r;
            if (fifo_first()) r = fifo_.front().req, fifo_.pop_front();
            else r = heap_.top().req, heap_.pop();
            if (!empty()) __builtin_prefetch(front().req);  // the next answer's request is likely cold
            r->reply_to->mem_response(*r);
        }
        if (!empty()) cal_.wake(unit_, front().at);
    }
    const Clock& clk_;
    std::deque<Due> fifo_;  // sorted: appended only in cycle order
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> heap_;
    uint64_t seq_ = 0;
    WakeCalendar& cal_;
    uint32_t unit_;
};

}  // namespace dcusim
