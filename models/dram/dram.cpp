#include "dram.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

Dram::Dram(sc_core::sc_module_name name, const DramParams& p, const Clock& core_clk)
    : sc_module(name), p_(p), clk_(core_clk), mclk_(p.clock_mhz), map_(p), burst_(p.burst_bytes), responses_("responses", core_clk) {
    for (uint32_t c = 0; c < p.channels; ++c) {
        auto n = "ch" + std::to_string(c);
        channels_.push_back(std::make_unique<DramChannel>(n.c_str(), c, p_, mclk_, this));
    }
}

void Dram::mem_request(MemRequest& req) {
    const Cycle arrival = std::max(clk_.now(), req.issue);
    const Cycle marr = mclk_.cycle_at_or_after_ps(clk_.ps_of(arrival));
    const bool write = req.op == trace::Op::Store;
    const uint32_t id = pending_.acquire();
    Pending& pd = pending_[id];
    pd = {&req, 0, 0, arrival};
    // The wanted sectors (all of the block when none are named), burst by burst.
    const uint32_t sector = req.sectors ? req.sector_bytes : req.size;
    const uint32_t nsec = req.sectors ? req.size / req.sector_bytes : 1;
    uint64_t bytes = 0;
    // Consecutive bursts to one row of one bank go as one run (one queue entry).
    DramBurst run;
    uint32_t run_channel = 0;
    bool have_run = false;
    auto bank_of = [&](const DramAddress& da) { return uint16_t(da.bank_group * p_.banks_per_group + da.bank); };
    auto start_run = [&](const DramAddress& da) {
        run = DramBurst();
        run.parent = id;
        run.write = write;
        run.bank = bank_of(da);
        run.row = da.row;
        run.arrival = marr;
        run.seq = seq_;
        run_channel = da.channel;
        have_run = true;
    };
    auto wanted = [&](uint32_t s) { return !req.sectors || (req.sectors >> s & 1); };
    // Bursts of sector s: from its first byte's burst to its last byte's.
    auto bursts_of = [&](uint32_t s) {
        const uint64_t lo = req.addr + uint64_t(s) * sector;
        return uint32_t(burst_.div(lo + sector - 1) - burst_.div(lo) + 1);
    };
    uint32_t total = 0;
    if (req.size && map_.same_chunk(req.addr, req.addr + req.size - 1)) {
        // The usual line request: one chunk, so one channel, bank and row, and one run.
        for (uint32_t s = 0; s < nsec; ++s)
            if (wanted(s)) total += bursts_of(s);
    }
    if (total && total <= 255) {
        start_run(map_.map(burst_.div(req.addr) * p_.burst_bytes));
        run.count = total;
        seq_ += total;
        pd.runs = 1;
        bytes = uint64_t(total) * p_.burst_bytes;
    } else {
        for (uint32_t s = 0; s < nsec; ++s) {
            if (!wanted(s)) continue;
            const uint64_t lo = req.addr + uint64_t(s) * sector, hi = lo + sector;
            for (uint64_t a = burst_.div(lo) * p_.burst_bytes; a < hi; a += p_.burst_bytes) {
                const DramAddress da = map_.map(a);
                bytes += p_.burst_bytes;
                if (have_run && da.channel == run_channel && bank_of(da) == run.bank && da.row == run.row && run.count < 255) {
                    run.count = run.count + 1;
                    ++seq_;
                    continue;
                }
                if (have_run) channels_[run_channel]->enqueue(run);
                start_run(da);
                ++pd.runs;
                ++seq_;
            }
        }
    }
    if (have_run) channels_[run_channel]->enqueue(run);
    (write ? stats_.write_requests : stats_.read_requests) += 1;
    (write ? stats_.write_bytes : stats_.read_bytes) += bytes;
    if (PcProfile* prof = PcProfile::active()) prof->at(req.pc).dram_bytes += bytes;
    if (pd.runs == 0) {  // nothing to move
        responses_.deliver(req, arrival);
        pending_.release(id);
    }
}

void Dram::run_done(const DramBurst& b, Cycle end) {
    Pending& pd = pending_[b.parent];
    pd.end = std::max(pd.end, end);
    if (--pd.runs) return;
    Cycle done = clk_.cycle_at_or_after_ps(mclk_.ps_of(pd.end + p_.latency_cycles));
    if (pd.req->op != trace::Op::Store) stats_.read_latency_sum += done - pd.arrival;
    responses_.deliver(*pd.req, done);
    pending_.release(b.parent);
}

void Dram::settle() {
    for (auto& c : channels_) c->settle();
}

void Dram::report(StatMap& m) const {
    stats_.add_to(m);
    for (const auto& c : channels_) c->stats().add_to(m);
}

void Dram::reset_stats() {
    stats_ = {};
    for (auto& c : channels_) c->reset_stats();
}

}  // namespace dcusim
