#include "platform.h"

#include <systemc>

#include <memory>

#include "../models/constant/const_cache.h"
#include "../models/cu/compute_unit.h"
#include "../models/dispatch/dispatcher.h"
#include "../models/lds/lds.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../traces/format/source.h"
#include "preset.h"

namespace dcusim {

bool is_per_kernel_only(const std::string& key) { return key.rfind("occupancy.", 0) == 0; }

namespace {

class Gpu : public KernelObserver {
public:
    Gpu(const Preset& p, const std::vector<std::string>& traces, const RunOptions& opt) : clk_(p.clock_mhz) {
        DispatcherParams dp;
        dp.target_wave_size = p.cu.wave_size;
        dp.cu = p.cu;
        dp.lds_size = p.lds.size_bytes;
        dp.lds_granule = p.lds.alloc_granule;
        dp.progress = opt.progress;
        dispatcher_ = std::make_unique<Dispatcher>("dispatcher", dp, clk_, traces, this);
        mem_ = std::make_unique<FixedLatencyMemory>("mem", p.mem, clk_);
        std::vector<ComputeUnit*> cus;
        for (uint32_t i = 0; i < p.cus; ++i) {
            if (i % p.constant.cus_per_cache == 0) {
                auto name = "const" + std::to_string(consts_.size());
                consts_.push_back(std::make_unique<ConstantCache>(name.c_str(), p.constant));
                consts_.back()->mem(*mem_);
            }
            auto lname = "lds" + std::to_string(i), cname = "cu" + std::to_string(i);
            lds_.push_back(std::make_unique<Lds>(lname.c_str(), p.lds));
            cus_.push_back(std::make_unique<ComputeUnit>(cname.c_str(), i, p.cu, clk_, dispatcher_.get()));
            ComputeUnit& cu = *cus_.back();
            cu.lds(*lds_.back());
            cu.constant(*consts_.back());
            cu.mem(*mem_);
            cus.push_back(&cu);
        }
        dispatcher_->attach(cus);
    }

    void kernel_started(const trace::KernelInfo&, const Occupancy& occ) override {
        occ_ = occ;
        for (auto& c : cus_) c->reset_stats();
        for (auto& l : lds_) l->reset_stats();
        // A kernel launch invalidates the constant cache (HSA dispatch acquire; assumed for every preset).
        for (auto& k : consts_) {
            k->reset_stats();
            k->invalidate();
        }
        mem_->reset_stats();
    }

    void kernel_finished(const trace::KernelInfo& k, Cycle cycles) override {
        KernelResult r;
        r.name = k.name;
        r.stats["cycles"] = double(cycles);
        occ_.report(r.stats);
        for (auto& c : cus_) c->stats().report(r.stats);
        for (auto& l : lds_) l->stats().report(r.stats);
        for (auto& c : consts_) c->stats().report(r.stats);
        mem_->stats().report(r.stats);
        for (const auto& [key, v] : r.stats)
            if (!is_per_kernel_only(key)) result_.total[key] += v;
        result_.kernels.push_back(std::move(r));
    }

    Dispatcher& dispatcher() { return *dispatcher_; }
    RunResult& result() { return result_; }

private:
    Clock clk_;
    std::unique_ptr<Dispatcher> dispatcher_;
    std::unique_ptr<FixedLatencyMemory> mem_;
    std::vector<std::unique_ptr<ConstantCache>> consts_;
    std::vector<std::unique_ptr<Lds>> lds_;
    std::vector<std::unique_ptr<ComputeUnit>> cus_;
    Occupancy occ_;
    RunResult result_;
};

}  // namespace

RunResult simulate(const Config& cfg, const std::vector<std::string>& traces, const RunOptions& opt) {
    Preset p = make_preset(cfg);
    for (const auto& t : traces) trace::open_source(t);  // a missing or unreadable file fails before simulating
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    // Built once per process and kept: SystemC allows one elaboration per process.
    static Gpu* gpu = nullptr;
    if (gpu) throw std::logic_error("simulate() may run once per process");
    gpu = new Gpu(p, traces, opt);
    sc_core::sc_start();
    if (auto e = gpu->dispatcher().error()) std::rethrow_exception(e);
    if (!gpu->dispatcher().finished())
        throw std::runtime_error("simulation stalled at cycle " + std::to_string(Clock(p.clock_mhz).now()) +
                                 " before the traces were done (a model deadlock: please report it with the trace)");
    return gpu->result();
}

}  // namespace dcusim
