#include "dispatcher.h"

#include <cmath>

#include "../gpu/launch.h"

namespace dcusim {

Dispatcher::Dispatcher(sc_core::sc_module_name name, const DispatcherParams& p, const Clock& clk,
                       std::unique_ptr<trace::WorkgroupSource> work, KernelObserver* obs)
    : sc_module(name), p_(p), clk_(clk), work_(std::move(work)), obs_(obs), sampler_(p.sample, p.sample_line_bytes, obs) {
    SC_HAS_PROCESS(Dispatcher);
    SC_METHOD(run);
    sensitive << wake_;
}

void Dispatcher::workgroup_retired(uint32_t, uint64_t tag, Cycle when) {
    sampler_.retired(tag, when);
    wake_.notify(sc_core::SC_ZERO_TIME);
}

void Dispatcher::run() {
    try {
        const Cycle now = clk_.now();
        for (;;) {
            if (!in_kernel_) {
                if (!work_->next_kernel()) {
                    finished_ = true;  // nothing else is pending: sc_start returns
                    return;
                }
                const trace::KernelInfo& k = work_->kernel();
                Occupancy occ = compute_occupancy(p_.cu, p_.lds_size, p_.lds_granule, k, p_.lds_reserved);
                if (const auto c = Launch::preferred_carveout(p_.launch, k, occ.lds_alloc_bytes)) occ.limit_lds(*c);
                for (ComputeUnit* cu : cus_) cu->set_kernel(occ);
                sampler_.kernel_start(k.grid.count(), uint64_t(occ.workgroups_per_cu) * cus_.size());
                obs_->kernel_started(k, occ, work_->pc_lines());
                in_kernel_ = true;
                trace_drained_ = false;
                kernel_start_ = now;
                next_dispatch_ = double(now);
                // Every kernel's first workgroups go to the same CUs, whatever ran before: the H200 puts
                // blocks 0-7 of every launch on SMs 124-131 (validation/results/h200-blocktimeline).
                rr_ = 0;
            }
            dispatch(now);
            if (!trace_drained_ || pending_) return;  // more when a workgroup retires
            for (ComputeUnit* cu : cus_)
                if (!cu->idle()) return;
            const Cycle simulated = now - kernel_start_ + p_.launch_cycles;
            const SampleReport rep = sampler_.kernel_end();
            if (rep.status != SampleStatus::Off) obs_->kernel_sampled(rep, simulated);
            obs_->kernel_finished(work_->kernel(), simulated + Cycle(std::llround(rep.projected_cycles)));
            in_kernel_ = false;
        }
    } catch (...) {
        error_ = std::current_exception();
        sc_core::sc_stop();
    }
}

void Dispatcher::dispatch(Cycle now) {
    const size_t n = cus_.size();
    for (;;) {
        if (!pending_ && !pull()) return;
        size_t i = 0;
        while (i < n && !cus_[(rr_ + i) % n]->can_accept()) ++i;
        if (i == n) return;  // every CU is full
        if (p_.dispatch_cycles > 0 && next_dispatch_ > double(now)) {
            wake_.notify(clk_.until(Cycle(std::ceil(next_dispatch_))));  // the dispatcher is busy until then
            return;
        }
        size_t c = (rr_ + i) % n;
        cus_[c]->launch(std::move(pending_), now);
        // The fraction of a cycle a wake on a whole cycle lost is kept; after idle time, from now.
        next_dispatch_ = (double(now) - next_dispatch_ < 1.0 ? next_dispatch_ : double(now)) + p_.dispatch_cycles;
        rr_ = uint32_t((c + 1) % n);
        if ((++launched_ & 1023) == 0) obs_->workgroups_dispatched(work_->kernel(), launched_, now);
    }
}

bool Dispatcher::pull() {
    if (trace_drained_) return false;
    // A workgroup the sampler skips is read (and checked) and projected, never regrouped nor launched:
    // the next one is read in its place.
    for (;;) {
        const std::vector<trace::WaveTrace>* waves = work_->peek_workgroup();
        if (!waves) {
            trace_drained_ = true;
            return false;
        }
        if (sampler_.skip(*waves)) {
            progress_.publish(clk_.now(), ++skipped_);
            continue;
        }
        pending_ = std::make_unique<trace::WorkgroupTrace>();
        work_->take_workgroup(*pending_);
        pending_->tag = sampler_.tag();
        return true;
    }
}

}  // namespace dcusim
