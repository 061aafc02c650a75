#include "platform.h"

#include <systemc>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "../models/constant/const_cache.h"
#include "../models/cu/compute_unit.h"
#include "../models/dispatch/dispatcher.h"
#include "../models/lds/lds.h"
#include "../models/dram/dram.h"
#include "../models/gpu/launch.h"
#include "../models/host/mapped_memory.h"
#include "../models/l1/vector_l1.h"
#include "../models/l2/l2_slice.h"
#include "../models/l2/l2_warmer.h"
#include "../models/memory/aperture.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../models/noc/crossbar.h"
#include "../traces/format/source.h"
#include "../traces/replay/trace_files.h"
#include "host_program.h"
#include "preset.h"
#include "profiler_counters.h"
#include "sample_projection.h"
#include "sample_regime.h"
#include "stats_catalog.h"
#include "watchdog.h"

namespace dcusim {

namespace {

class Gpu : public KernelObserver, public LaunchTargets {
public:
    Gpu(const Preset& p, const std::vector<std::string>& traces, const RunOptions& opt)
        : clk_(p.clock_mhz), regime_(p.sample.tolerance, p.l2.sector_bytes, kMaxSpanWindows) {
        DispatcherParams dp;
        dp.cu = p.cu;
        dp.lds_size = p.lds.size_bytes;
        dp.lds_granule = p.lds.alloc_granule;
        dp.lds_reserved = p.lds.reserved_bytes;
        dp.launch = p.launch;
        progress_ = opt.progress;
        dp.launch_cycles = p.launch_cycles;
        dp.dispatch_cycles = p.dispatch_cycles;
        dp.sample = p.sample;
        dp.sample_line_bytes = p.l1.geometry.line_bytes;
        min_workgroups_ = p.sample.min_workgroups;
        wave_size_ = p.cu.wave_size;
        issue_cycles_ = p.cu.issue_cycles;
        sample_tolerance_ = p.sample.tolerance;
        projection_.min_pairs = p.sample.windows;
        if (!p.fixed_memory) l2_lines_ = uint64_t(p.noc.channels) * (p.l2.geometry.size_bytes / p.l2.geometry.line_bytes);
        if (!p.fixed_memory) {
            l2_dirty_limit_ = uint64_t(p.noc.channels) * p.l2.dirty_limit_sectors;
            l2_dirty_slack_ = uint64_t(p.noc.channels) * (p.l2.geometry.line_bytes / p.l2.sector_bytes);
        }
        l2_line_bytes_ = p.l2.geometry.line_bytes;
        l2_sector_bytes_ = p.l2.sector_bytes;
        launch_ = std::make_unique<Launch>(p.launch, l2_line_bytes_);
        auto source = std::make_unique<trace::TraceFiles>(traces, p.cu.wave_size);
        source_ = source.get();  // its host statements, between kernels (the dispatcher owns it)
        host_link_ = p.host;
        clock_mhz_ = p.clock_mhz;
        dispatcher_ = std::make_unique<Dispatcher>("dispatcher", dp, clk_, std::move(source), this);
        // What is behind the CUs' global-memory ports and the constant caches' fill ports.
        MemTargetIf* below_l1 = nullptr;
        if (p.fixed_memory) {
            mem_ = std::make_unique<FixedLatencyMemory>("mem", p.mem, clk_);
            below_l1 = mem_.get();
        } else {
            dram_ = std::make_unique<Dram>("dram", p.dram, clk_);
            mapped_ = std::make_unique<MappedMemory>("mapped", p.host, clk_);
            aperture_ = std::make_unique<Aperture>("aperture", mapped_ranges_);
            aperture_->device(*dram_);
            aperture_->host(*mapped_);
            xbar_ = std::make_unique<Crossbar>("noc", p.noc, clk_);
            for (uint32_t c = 0; c < p.noc.channels; ++c) {
                auto name = "l2_" + std::to_string(c);
                L2Params l2p = p.l2;
                l2p.index = c;
                l2_.push_back(std::make_unique<L2Slice>(name.c_str(), l2p, clk_));
                l2_.back()->dram(*aperture_);
                l2_.back()->set_mapped(&mapped_ranges_);
                xbar_->channels.push_back(l2_.back().get());
            }
            if (p.l2.sides.replicating()) {  // a copy's home, a home's copies
                link_ = std::make_unique<L2Link>("l2_link", p.l2.sides, clk_);
                std::vector<L2SideIf*> slices;
                for (auto& l : l2_) slices.push_back(l.get()), l->link(*link_);
                link_->attach(std::move(slices));
            }
            if (p.sample.on && p.sample.warm_l2) {
                std::vector<L2Slice*> slices;
                for (auto& l : l2_) slices.push_back(l.get());
                warmer_ = std::make_unique<L2Warmer>(
                    std::move(slices), p.noc.channel_map(), p.l2.sides, link_.get(),
                    L2Warmer::Geometry{p.l2.geometry.line_bytes, p.l2.sector_bytes, p.l1.sector_bytes, p.cus});
            }
            below_l1 = xbar_.get();
        }
        std::vector<ComputeUnit*> cus;
        for (uint32_t i = 0; i < p.cus; ++i) {
            if (i % p.constant.cus_per_cache == 0) {
                auto name = "const" + std::to_string(consts_.size());
                ConstParams cp = p.constant;
                cp.first_cu = i;
                consts_.push_back(std::make_unique<ConstantCache>(name.c_str(), cp));
                consts_.back()->mem(*below_l1);
            }
            auto lname = "lds" + std::to_string(i), cname = "cu" + std::to_string(i);
            lds_.push_back(std::make_unique<Lds>(lname.c_str(), p.lds));
            cus_.push_back(std::make_unique<ComputeUnit>(cname.c_str(), i, p.cu, clk_, dispatcher_.get()));
            ComputeUnit& cu = *cus_.back();
            cu.lds(*lds_.back());
            cu.constant(*consts_.back());
            if (p.fixed_memory) {
                cu.mem(*mem_);
            } else {
                auto l1name = "l1_" + std::to_string(i);
                L1Params l1p = p.l1;
                l1p.cu_index = i;
                l1p.wave_slots = p.cu.simds * p.cu.waves_per_simd;
                l1_.push_back(std::make_unique<VectorL1>(l1name.c_str(), l1p, clk_));
                l1_.back()->down(*xbar_);
                cu.mem(*l1_.back());
            }
            cus.push_back(&cu);
        }
        dispatcher_->attach(cus);
    }

    void kernel_started(const trace::KernelInfo& k, const Occupancy& occ,
                        const std::map<uint64_t, std::string>& pc_lines) override {
        occ_ = occ;
        for (const trace::Record& r : source_->host_before()) {
            host_.statement(r);
            if (r.kind == trace::RecKind::Map) mapped_ranges_.add(r.host.base, r.host.bytes);  // mapped from here on
        }
        if (watchdog_) watchdog_->kernel(k.name);
        for (auto& l : l1_) l->set_private_bytes(k.scratch_bytes);
        pc_lines_ = pc_lines;
        if (PcProfile* prof = PcProfile::active()) prof->reset();
        for (auto& c : cus_) c->reset_stats();
        for (auto& l : lds_) l->reset_stats();
        for (auto& k : consts_) k->reset_stats();
        for (auto& l : l1_) l->reset_stats();
        for (auto& l : l2_) l->reset_stats();
        launch_->begin(k, occ, *this);  // before the resets below: an L2 flush's write-backs are no kernel's
        if (mem_) mem_->reset_stats();
        projection_.reset();
        skipped_ = {};
        skipped_exact_ = source_->capture_wave_size() == wave_size_;  // else regrouped when taken: projected
        if (warmer_) warmer_->reset_traffic();
        if (xbar_) xbar_->reset_stats();
        if (dram_) dram_->settle(), dram_->reset_stats();  // refreshes between kernels count for neither
        if (mapped_) mapped_->reset_stats();
    }

    // A line on stderr at most every 2 seconds, for runs long enough to need one.
    void workgroups_dispatched(const trace::KernelInfo& k, uint64_t launched, Cycle now) override {
        if (!progress_) return;
        const auto t = std::chrono::steady_clock::now();
        if (t - last_progress_ < std::chrono::seconds(2)) return;
        last_progress_ = t;
        std::fprintf(stderr, "dcusim: kernel %s: %llu workgroups dispatched, cycle %llu\n", k.name.c_str(),
                     static_cast<unsigned long long>(launched), static_cast<unsigned long long>(now));
    }

    void kernel_finished(const trace::KernelInfo& k, Cycle cycles) override {
        host_.kernel(k.name, k.stream, uint64_t(std::llround(double(cycles) * 1e6 / clock_mhz_)));  // cycles to ps
        KernelResult r;
        r.name = k.name;
        kernel_counter_table().report({cycles}, r.stats);
        occ_.report(r.stats);
        if (launch_->unified()) launch_counter_table().report(*launch_, r.stats);
        if (dram_) dram_->settle();
        counters(r.stats);
        if (sampled_) add_sample_figures(r);
        derive_stats(r.stats);
        if (PcProfile* prof = PcProfile::active())
            for (const auto& [pc, c] : prof->all()) {
                auto line = pc_lines_.find(pc);
                r.pcs.push_back({pc, line == pc_lines_.end() ? std::string() : line->second, c});
            }
        for (const auto& [key, v] : r.stats)
            if (!is_per_kernel_only(key)) result_.total[key] += v;
        derive_stats(result_.total);
        result_.kernels.push_back(std::move(r));
    }

    // Sampled simulation (models/dispatch/sampler.h): snapshots at window boundaries, their deltas.
    void sample_mark(uint64_t id) override {
        StatMap m;
        counters(m);
        const auto [lines, dirty] = l2_held();
        projection_.mark(id, clk_.now(), std::move(m), lines, dirty);
    }
    bool sample_stationary(uint64_t from, uint64_t to, uint64_t workgroups, uint64_t remaining) override {
        if (warmer_)
            return projection_.drain_small(from, to, sample_tolerance_, double(l2_sector_bytes_)) &&
                   projection_.traffic_steady(from, to, sample_tolerance_);
        return projection_.stationary(from, to, workgroups, remaining, l2_lines_, sample_tolerance_, l2_dirty_limit_,
                                      l2_dirty_slack_);
    }
    void sample_steady(uint64_t from, uint64_t to, uint64_t workgroups) override {
        projection_.steady(from, to, workgroups);
        if (warmer_) regime_.steady(l2_look());
    }
    void sample_skipped(uint64_t n) override { projection_.skipped(n); }
    void sample_skipped_workgroup(const trace::WorkgroupMix& mix) override {
        if (skipped_exact_) skipped_.workgroup(mix, issue_cycles_);
    }
    void sample_warm(const std::vector<trace::WaveTrace>& waves) override {
        if (warmer_) warmer_->workgroup(waves);
    }
    bool sample_changed() override { return warmer_ && regime_.changed(l2_look()); }
    void kernel_sampled(const SampleReport& rep, Cycle simulated) override {
        sampled_ = true;
        sample_ = rep;
        sample_cycles_ = simulated;
    }

    Dispatcher& dispatcher() { return *dispatcher_; }
    void watch(Watchdog* w) { watchdog_ = w; }
    const std::vector<std::unique_ptr<ComputeUnit>>& cus() const { return cus_; }
    RunResult& result() { return result_; }
    // After the last kernel: the trace's last host statements, then the program's timeline; its
    // figures (the total's, no kernel's) when the trace said anything of its host side.
    void finish_host() {
        for (const trace::Record& r : source_->host_before()) host_.statement(r);
        const HostStreams timeline = host_.run(HostLink(host_link_));
        result_.host_ops = host_.ops();  // --timeline shows the kernels even of a trace without host statements
        result_.host_spans = timeline.spans();
        if (host_.has_host()) host_counter_table().report(timeline.stats(), result_.total);
    }
    void add_profiler_counters_to_all(const std::string& profiler) {
        for (auto& k : result_.kernels) add_profiler_counters(k.stats, profiler);
        add_profiler_counters(result_.total, profiler);
    }

private:
    // Every unit's counters as they stand (a snapshot mid-kernel leaves the DRAM's pending refreshes
    // where they are: settling them would change what the channel does next).
    void counters(StatMap& m) const {
        for (auto& c : cus_) c->stats().report(m);
        for (auto& l : lds_) l->stats().report(m);
        for (auto& c : consts_) c->stats().report(m);
        if (mem_) mem_->stats().report(m);
        for (auto& l : l1_) l->stats().add_to(m);
        if (xbar_) xbar_->stats().add_to(m);
        for (auto& l : l2_) l->stats().add_to(m);
        if (dram_) dram_->report(m);
        if (mapped_) mapped_->stats().add_to(m);
    }

    // What sampling with the L2 warmed looks at (sample_regime.h).
    // The lines the L2's slices hold, and their dirty sectors (each slice keeps both counts).
    std::pair<uint64_t, uint64_t> l2_held() const {
        uint64_t lines = 0, dirty = 0;
        for (const auto& l : l2_) lines += l->valid_lines(), dirty += l->dirty_sectors();
        return {lines, dirty};
    }
    L2Look l2_look() const {
        const auto [lines, dirty] = l2_held();
        return {double(lines) >= (1 - sample_tolerance_) * double(l2_lines_),
                l2_dirty_limit_ && dirty + l2_dirty_slack_ >= l2_dirty_limit_,
                warmer_->read_bytes() + warmer_->written_bytes(), warmer_->workgroups(), dirty};
    }

    // The projected sums and the sample.* figures, and the note every output carries.
    void add_sample_figures(KernelResult& r) {
        sampled_ = false;
        r.projected = sample_.status == SampleStatus::Projected;
        r.sample_measurements = sample_.measurements;
        if (r.projected && warmer_) {  // the DRAM traffic of the skipped workgroups, as their warming counted it
            projection_.counted("dram.read_bytes", double(warmer_->read_bytes()));
            projection_.counted("dram.write_bytes", double(warmer_->written_bytes()));
            projection_.counted("l2.writeback_bytes", double(warmer_->written_bytes()));
        }
        if (r.projected && skipped_exact_) count_skipped();
        if (r.projected) projection_.apply(r.stats);
        sample_counter_table().report({r.projected ? 1u : 0u, sample_.total, sample_.simulated, sample_cycles_}, r.stats);
        const std::string wgs = std::to_string(sample_.total) + " workgroups";
        switch (sample_.status) {
            case SampleStatus::Projected:
                r.sample_note = "projected: " + std::to_string(sample_.simulated) + " of " + wgs + " simulated (" +
                                std::to_string(sample_.classes) + " signature classes), " + std::to_string(sample_cycles_) +
                                " cycles simulated; cycles and sums are projected";
                break;
            case SampleStatus::TooSmall:
                r.sample_note = "ran in full: " + std::to_string(sample_.grid) + " workgroups, fewer than sample.min_workgroups (" +
                                std::to_string(min_workgroups_) + ")";
                break;
            case SampleStatus::TooShort:
                r.sample_note = "ran in full: " + std::to_string(sample_.grid) + " workgroups, fewer than twice the " +
                                std::to_string(sample_.needed) + " timed at least (the warm-up, the steady windows and a round draining; rounds of " +
                                std::to_string(sample_.capacity) + ")";
                break;
            default:
                r.sample_note = "ran in full: " + wgs + ", the rate was never steady within sample.tolerance" +
                                (warmer_ ? std::string() : std::string(" with the L2 not filling"));
        }
    }

    // The skipped workgroups' counts that their trace decides (instructions, waves, workgroups), counted
    // instead of projected; their stall cycles are the timing's, and stay projected.
    void count_skipped() {
        StatMap m;
        skipped_.report(m);
        for (const auto& [key, v] : m)
            if (key.rfind("stall.", 0) != 0) projection_.counted(key, v);
    }

    // What a launch acts on (models/gpu/launch.h).
    void resize_l1s(uint64_t bytes) override {
        for (auto& l : l1_) l->resize(bytes);
    }
    void invalidate_constant_caches() override {
        for (auto& k : consts_) k->invalidate();
    }
    void invalidate_l1s() override {
        for (auto& l : l1_) l->invalidate();
    }
    void invalidate_l2() override {
        for (auto& l : l2_) l->invalidate();
    }
    void add_l2_foreign_dirty(uint64_t address) override {
        if (xbar_) l2_[xbar_->channel_of(address)]->add_foreign_dirty(address / l2_line_bytes_);  // none with mem.model = fixed
    }

    Clock clk_;
    bool progress_ = true;
    std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now();
    Watchdog* watchdog_ = nullptr;
    uint64_t l2_line_bytes_ = 128;
    uint64_t l2_sector_bytes_ = 32;
    std::unique_ptr<Launch> launch_;
    std::unique_ptr<Dispatcher> dispatcher_;
    std::unique_ptr<FixedLatencyMemory> mem_;
    std::unique_ptr<Dram> dram_;
    MappedRanges mapped_ranges_;  // the trace's `map` statements so far
    std::unique_ptr<MappedMemory> mapped_;
    std::unique_ptr<Aperture> aperture_;
    std::unique_ptr<Crossbar> xbar_;
    std::unique_ptr<L2Link> link_;  // between the L2 sides, when they keep copies
    std::vector<std::unique_ptr<L2Slice>> l2_;
    std::unique_ptr<L2Warmer> warmer_;  // with sample.warm = l2
    std::vector<std::unique_ptr<VectorL1>> l1_;
    std::vector<std::unique_ptr<ConstantCache>> consts_;
    std::vector<std::unique_ptr<Lds>> lds_;
    std::vector<std::unique_ptr<ComputeUnit>> cus_;
    Occupancy occ_;
    std::map<uint64_t, std::string> pc_lines_;
    SampleProjection projection_;
    bool sampled_ = false;  // kernel_sampled came for the kernel that is finishing
    SampleReport sample_;
    Cycle sample_cycles_ = 0;
    uint64_t min_workgroups_ = 0;
    uint32_t wave_size_ = 64;
    Cycle issue_cycles_ = 4;
    CuStats skipped_;             // the skipped workgroups' counts, with skipped_exact_
    bool skipped_exact_ = false;  // the trace's waves are the CU's: nothing regrouped
    uint64_t l2_lines_ = 0;  // the L2's capacity, all slices
    double sample_tolerance_ = 0.05;
    uint64_t l2_dirty_limit_ = 0;  // the L2's dirty limit, all slices, in sectors (0: none)
    uint64_t l2_dirty_slack_ = 0;  // a line's sectors, all slices
    SampleRegime regime_;  // with the warmer
    RunResult result_;
    trace::TraceFiles* source_ = nullptr;
    HostProgram host_;
    HostLinkParams host_link_;
    double clock_mhz_ = 1;
};

}  // namespace

RunResult simulate(const Config& cfg, const std::vector<std::string>& traces, const RunOptions& opt) {
    Preset p = preset_registry::load(cfg);
    for (const auto& t : traces) trace::open_source(t);  // a missing or unreadable file fails before simulating
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    static PcProfile profile;
    if (opt.profile_pcs) PcProfile::enable(&profile);
    // Built once per process and kept: SystemC allows one elaboration per process.
    static Gpu* gpu = nullptr;
    if (gpu) throw std::logic_error("simulate() may run once per process");
    // Watches the building too: the caches' state is allocated up front.
    Watchdog watchdog(p.memory_limit_bytes, p.stall_seconds, "dcusim run");
    gpu = new Gpu(p, traces, opt);
    gpu->watch(&watchdog);
    watchdog.watch([] {
        ProgressSample s;
        for (const auto& c : gpu->cus()) {
            const Progress& pr = c->progress();
            s.cycle = std::max(s.cycle, pr.cycle());
            s.instructions += pr.instructions();
            s.steps += pr.steps();
        }
        s.instructions += gpu->dispatcher().progress().instructions();  // workgroups skipped (sampling)
        return s;
    });
    uint64_t livelock_at = 0;
    if (TestLivelock::wanted(livelock_at)) new TestLivelock("test_livelock", livelock_at * Clock(p.clock_mhz).period_ps());
    sc_core::sc_start();
    gpu->watch(nullptr);
    if (auto e = gpu->dispatcher().error()) std::rethrow_exception(e);
    if (!gpu->dispatcher().finished())
        throw std::runtime_error("simulation stalled at cycle " + std::to_string(Clock(p.clock_mhz).now()) +
                                 " before the traces were done (a model deadlock: please report it with the trace)");
    gpu->finish_host();
    gpu->add_profiler_counters_to_all(p.profiler);  // after the totals: they are not summed
    return gpu->result();
}

}  // namespace dcusim
