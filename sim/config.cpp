#include "config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "models/lds/lds.h"

namespace dcusim {

namespace {
// Upper bounds shared by many keys. None is a limit of any hardware; each lies far past every GPU
// and keeps the simulator's state and its time per simulated cycle bounded.
constexpr double kMaxUnits = 4096;          // CUs, channels: every unit has state (requests name their CU in 16 bits)
constexpr double kMaxLatency = 100000;      // cycles: a hundred times the slowest DRAM access of any GPU
constexpr double kMaxRegisters = 65536;     // registers per SIMD or wave (GPUs: 256 to 2048)
constexpr double kMaxLocalBytes = 1 << 30;  // LDS, L1, constant cache of one CU (GPUs: 16K to 256K)
constexpr double kMaxBigBytes = 64.0 * (1 << 30);  // L2 (GPUs: 4M to 128M); its lines are bounded in make_preset too
constexpr double kMaxLineBytes = 4096;      // cache line, sector, burst: one request's worth (GPUs: 32 to 128)
constexpr double kMaxAssoc = 1024;          // ways: a lookup scans them
constexpr double kMaxInterleave = 1 << 20;  // channel interleave, DRAM row (GPUs: 256 to 8K)
constexpr double kMaxMshrs = 65536;         // per cache: allocated up front
constexpr double kMaxTiming = 4096;         // tCK: JEDEC timings are at most hundreds (tRFC: about 900 at DDR5's fastest)
constexpr double kMaxRefresh = 1 << 20;     // tREFI: a few thousand tCK on every DRAM
constexpr double kTick = 1.0 / 1024;        // rates and slots are kept in 1/1024 cycles in 64 bits
}  // namespace

// The keys of the units that declare their own (models/*/..._params.cpp) are placed among the
// rest in the order `dcusim --help` lists them.
static std::vector<ParamDef> gather_param_defs() {
    using T = ParamType;
    // Defaults are the dcu-z100 preset (configs/dcu-z100.ini gives each value's source).
    std::vector<ParamDef> defs = {
        {"cu.count", T::UInt, "64", "CUs", "compute units", {}, 1, kMaxUnits, "a limit of dcusim"},
        {"cu.clock_mhz", T::Real, "1500", "MHz", "core clock", {}, 1, 1e6, "a period of 1 ps"},
        {"cu.wave_size", T::UInt, "64", "lanes", "lanes per wave (32 or 64); traces are regrouped to it", {"32", "64"}, 0, 64},
        {"cu.simds", T::UInt, "4", "SIMDs", "SIMDs per CU, each issuing for its own waves", {}, 1, 64, "GPUs have 1 to 4"},
        {"cu.waves_per_simd", T::UInt, "10", "waves", "wave slots per SIMD", {}, 1, 256},
        {"cu.max_workgroups", T::UInt, "16", "workgroups", "resident workgroups per CU", {}, 1, 1024},
        {"cu.vgprs_per_simd", T::UInt, "256", "registers/lane", "vector register file of one SIMD, registers per lane", {}, 1, kMaxRegisters},
        {"cu.vgpr_granule", T::UInt, "4", "registers", "vector register allocation unit per wave", {}, 1, kMaxRegisters},
        {"cu.max_vgprs", T::UInt, "256", "registers", "most vector registers one wave may use", {}, 1, kMaxRegisters},
        {"cu.sgprs_per_simd", T::UInt, "800", "registers", "scalar register file per SIMD (0: none)", {}, 0, kMaxRegisters},
        {"cu.sgpr_granule", T::UInt, "16", "registers", "scalar register allocation unit per wave", {}, 1, kMaxRegisters},
        {"cu.max_sgprs", T::UInt, "102", "registers", "most scalar registers one wave may use", {}, 1, kMaxRegisters},
        {"cu.issue_cycles", T::UInt, "4", "cycles", "SIMD cycles to issue one instruction of one wave", {}, 1, kMaxLatency},
        {"cu.wave_issue_cycles", T::UInt, "0", "cycles",
         "fewest cycles between two instructions of one wave (dependent-issue latency; 0: cu.issue_cycles)", {}, 0, kMaxLatency},
        {"cu.long_issue_cycles", T::UInt, "0", "cycles",
         "the same after a long-latency instruction: conversions, transcendentals (`compute N long L` in traces; 0: as cu.wave_issue_cycles)",
         {}, 0, kMaxLatency},
        {"cu.mid_issue_cycles", T::UInt, "0", "cycles",
         "the same after a middle-latency instruction: wide integer multiplies (`compute N ... mid M` in traces; 0: as cu.wave_issue_cycles)",
         {}, 0, kMaxLatency},
        {"cu.dispatch_cycles", T::Real, "0", "cycles",
         "GPU-wide cycles between two workgroup dispatches (0: as fast as CUs accept them)", {}, 0, kMaxLatency},
        {"cu.workgroup_start_cycles", T::UInt, "0", "cycles",
         "from a CU taking a workgroup to its waves' first issue (the slots are held meanwhile)", {}, 0, kMaxLatency},
        {"cu.barrier_arrive_cycles", T::Real, "0", "cycles",
         "the CU takes its waves' arrivals at barriers one at a time, one every this many cycles (0: all at once)", {}, kTick, 1e6, "kept in 1/1024 cycles", true},
        {"cu.barrier_cycles", T::UInt, "0", "cycles", "from the CU taking a barrier's last arrival to releasing its workgroup", {}, 0, kMaxLatency},
        {"cu.launch_cycles", T::UInt, "0", "cycles", "per kernel launch: from the launch to the first workgroup, and the end of the grid", {}, 0, kMaxLatency},
        {"cu.max_outstanding", T::UInt, "63", "instructions", "memory instructions in flight per wave", {}, 1, 4096},
        {"cu.wait_stores", T::Choice, "on", "",
         "on: a wait, and the in-flight limit, count stores until they are acknowledged; off: loads only (a wave ends once its stores are done either way)",
         {"on", "off"}, 0},
        {"lds.carveouts", T::SizeList, "0", "bytes",
         "with l1.unified_bytes: the LDS sizes the storage splits into; a kernel gets the smallest that holds its resident workgroups "
         "and is at least lds.min_carveout", {}, 0, kMaxLocalBytes},
        {"lds.min_carveout", T::Size, "0", "bytes", "with l1.unified_bytes: the smallest carve-out a kernel gets, whatever its LDS", {}, 0, kMaxLocalBytes},
        {"const.size_bytes", T::Size, "16K", "bytes", "constant cache size", {}, 1, kMaxLocalBytes},
        {"const.line_bytes", T::UInt, "64", "bytes", "constant cache line", {}, 4, kMaxLineBytes},
        {"const.assoc", T::UInt, "4", "ways", "constant cache associativity", {}, 1, kMaxAssoc},
        {"const.replacement", T::Choice, "lru", "", "constant cache replacement policy", {"lru", "plru", "fifo", "random"}, 0},
        {"const.latency", T::UInt, "16", "cycles", "constant cache hit latency", {}, 0, kMaxLatency},
        {"const.request_cycles", T::UInt, "1", "cycles", "cache port occupancy per request", {}, 1, kMaxLatency},
        {"const.replay_latency", T::UInt, "0", "cycles",
         "latency each request after a load's first adds beyond its port cycles (a divergent load's data comes later still)", {}, 0, kMaxLatency},
        {"const.cus_per_cache", T::UInt, "3", "CUs", "CUs sharing one constant cache", {}, 1, kMaxUnits},
        {"const.divergent", T::Choice, "vector", "",
         "k distinct addresses: serialize = k requests in turn, vector = vector-memory path", {"serialize", "vector"}, 0},
        {"report.profiler", T::Choice, "rocprof", "",
         "also report predicted counters under this profiler's names: ncu (Nsight Compute), rocprof, none", {"ncu", "rocprof", "none"}, 0},
        {"mem.model", T::Choice, "hierarchy", "", "global memory: hierarchy = L1, NoC, L2, DRAM; fixed = every request answered after mem.latency", {"hierarchy", "fixed"}, 0},
        {"mem.latency", T::UInt, "500", "cycles", "latency of every request when mem.model = fixed", {}, 0, kMaxLatency},
        {"l1.size_bytes", T::Size, "16K", "bytes", "vector L1 per CU (when l1.unified_bytes is 0)", {}, 1, kMaxLocalBytes},
        {"l1.unified_bytes", T::Size, "0", "bytes",
         "L1 and LDS share this storage: each kernel's L1 is what its LDS carve-out leaves (0: a separate L1 of l1.size_bytes)", {}, 0, kMaxLocalBytes},
        {"l1.line_bytes", T::UInt, "64", "bytes", "vector L1 line", {}, 4, kMaxLineBytes},
        {"l1.sector_bytes", T::UInt, "64", "bytes", "vector L1 sector (= line: not sectored)", {}, 4, kMaxLineBytes},
        {"l1.assoc", T::UInt, "4", "ways", "vector L1 associativity", {}, 1, kMaxAssoc},
        {"l1.replacement", T::Choice, "lru", "", "vector L1 replacement policy", {"lru", "plru", "fifo", "random"}, 0},
        {"l1.set_hash", T::Choice, "off", "",
         "off: a line's set is its number mod the sets; on: hashed, so that lines a multiple of the sets apart spread over them",
         {"on", "off"}, 0},
        {"l1.hit_latency", T::UInt, "116", "cycles", "vector L1 lookup to data", {}, 0, kMaxLatency},
        {"l1.lookups_per_cycle", T::UInt, "1", "lines/cycle", "vector L1 tag port", {}, 1, 64},
        {"l1.mshrs", T::UInt, "128", "lines", "vector L1 misses in flight", {}, 1, kMaxMshrs, "a limit of dcusim"},
        {"l1.data_banks", T::UInt, "0", "banks",
         "data stage of the vector L1: a load takes at least as many cycles as distinct words one bank reads (0: not modelled)", {}, 0, 1024},
        {"l1.data_bank_bytes", T::UInt, "8", "bytes", "width of one L1 data bank", {}, 1, 64},
        {"l1.local_write_allocate", T::Choice, "off", "",
         "local (private) stores allocate their sectors in the L1 (on: NVIDIA keeps spills in L1); global stores never do", {"on", "off"}, 0},
        {"l2.channels", T::UInt, "16", "channels", "L2 channels (slices)", {}, 1, kMaxUnits, "a limit of dcusim"},
        {"l2.interleave_bytes", T::Size, "256", "bytes", "consecutive bytes on one L2 channel", {}, 1, kMaxInterleave},
        {"l2.xor_hash", T::Choice, "off", "", "fold higher address bits into the L2 channel", {"off", "on"}, 0},
        {"l2.size_bytes", T::Size, "4M", "bytes", "L2, all channels", {}, 1, kMaxBigBytes},
        {"l2.line_bytes", T::UInt, "128", "bytes", "L2 line", {}, 4, kMaxLineBytes},
        {"l2.sector_bytes", T::UInt, "32", "bytes", "L2 sector", {}, 4, kMaxLineBytes},
        {"l2.assoc", T::UInt, "16", "ways", "L2 associativity", {}, 1, kMaxAssoc},
        {"l2.replacement", T::Choice, "lru", "", "L2 replacement policy", {"lru", "plru", "fifo", "random"}, 0},
        {"l2.hit_latency", T::UInt, "60", "cycles", "L2 lookup to data", {}, 0, kMaxLatency},
        {"l2.atomic_latency", T::UInt, "80", "cycles", "L2 lookup to atomic result", {}, 0, kMaxLatency},
        {"l2.lookups_per_cycle", T::UInt, "1", "lines/cycle", "L2 tag port per channel", {}, 1, 64},
        {"l2.mshrs", T::UInt, "256", "lines", "L2 misses in flight per channel", {}, 1, kMaxMshrs, "a limit of dcusim"},
        {"l2.writeback_buffers", T::UInt, "256", "lines",
         "write-backs in flight to DRAM per channel; while all are busy the channel takes no lookup (0: no limit)", {}, 0, kMaxMshrs},
        {"l2.writeback_cycles", T::UInt, "0", "cycles",
         "per channel, cycles between two DRAM writes (write-backs, and fetches that complete sectors written in part) "
         "(0: no limit)", {}, 0, kMaxLatency},
        {"l2.partitions", T::UInt, "1", "sides",
         "sides joined by a link: the L2 channels split into this many in index order, the CUs take them in turn; "
         "a miss for a line homed on another side crosses the link to memory", {}, 1, kMaxUnits},
        {"l2.replicate", T::Choice, "off", "",
         "each side keeps clean copies of the lines its CUs use: loads and stores go to the CU's own side, a missing "
         "copy is fetched from the line's home over the link, stores are written through to it (l2.channels must split "
         "evenly into l2.partitions)", {"on", "off"}, 0},
        {"l2.far_latency", T::UInt, "0", "cycles", "added each way to a request that crosses the link between sides", {}, 0, kMaxLatency},
        {"l2.partial_writes", T::Choice, "mask", "",
         "a sector a store writes only in part: fetch (read from DRAM at once, merged, written back: read-modify-write) "
         "or mask (kept dirty, written back with a byte mask, fetched only when read)", {"fetch", "mask"}, 0},
        {"l2.fetch_bytes", T::UInt, "0", "bytes",
         "DRAM fetch granularity: a miss fetches every sector of the aligned block this size (0: the missing sectors only)", {}, 0, kMaxLineBytes},
        {"l2.dirty_limit_bytes", T::Size, "0", "bytes",
         "most dirty data the L2 keeps; past it the oldest dirty lines are written back (0: only on eviction)", {}, 0, kMaxBigBytes},
        {"l2.flush_at_launch", T::Choice, "off", "",
         "empty the L2 before every kernel (on: as a profiler does between the kernels it measures)", {"on", "off"}, 0},
        {"l2.dirty_at_launch_bytes", T::Size, "0", "bytes",
         "dirty data of no kernel in the L2 at every kernel's start, oldest of all, written back when evicted (a "
         "profiler's own writes between its passes)", {}, 0, kMaxBigBytes},
        {"noc.latency", T::UInt, "30", "cycles", "CU-L2 interconnect, each way", {}, 0, kMaxLatency},
        {"noc.bytes_per_cycle", T::UInt, "64", "bytes/cycle", "interconnect link per L2 channel and direction", {}, 1, 65536},
        {"noc.cu_store_bytes_per_cycle", T::Real, "0", "bytes/cycle",
         "each CU's store and atomic data into the interconnect (0: no limit of its own)", {}, kTick, 1e6, "kept in 1/1024 cycles", true},
        {"noc.store_bytes_per_cycle", T::Real, "0", "bytes/cycle",
         "store and atomic data toward an L2 channel, per channel; may be fractional (0: noc.bytes_per_cycle)", {}, kTick, 1e6, "kept in 1/1024 cycles", true},
        {"noc.load_bytes_per_cycle", T::Real, "0", "bytes/cycle",
         "load and atomic data back from an L2 channel, per channel; may be fractional (0: noc.bytes_per_cycle)", {}, kTick, 1e6, "kept in 1/1024 cycles", true},
        {"dram.clock_mhz", T::Real, "1000", "MHz", "memory clock (command clock)", {}, 1, 1e6, "a period of 1 ps"},
        {"dram.channels", T::UInt, "64", "channels", "independent (pseudo-)channels", {}, 1, kMaxUnits, "a limit of dcusim"},
        {"dram.bank_groups", T::UInt, "4", "groups", "bank groups per channel", {}, 1, 1024},
        {"dram.banks_per_group", T::UInt, "4", "banks", "banks per bank group", {}, 1, 1024},
        {"dram.row_bytes", T::Size, "1K", "bytes", "row (page) of one channel", {}, 1, kMaxInterleave},
        {"dram.burst_bytes", T::UInt, "32", "bytes", "bytes of one RD or WR", {}, 1, kMaxLineBytes},
        {"dram.interleave_bytes", T::Size, "256", "bytes", "consecutive bytes on one DRAM channel", {}, 1, kMaxInterleave},
        {"dram.queue_depth", T::UInt, "64", "requests", "requests a channel controller schedules among", {}, 1, 1024, "the scheduler scans the queue every cycle"},
        {"dram.latency_cycles", T::UInt, "167", "memory cycles", "controller and PHY latency added to every answer", {}, 0, kMaxLatency},
        {"dram.tRCD", T::UInt, "12", "tCK", "ACT to RD", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRCDWR", T::UInt, "6", "tCK", "ACT to WR", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRP", T::UInt, "14", "tCK", "PRE to ACT", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRAS", T::UInt, "28", "tCK", "ACT to PRE", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRC", T::UInt, "42", "tCK", "ACT to ACT, same bank", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tCL", T::UInt, "17", "tCK", "RD to data (RL)", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tWL", T::UInt, "7", "tCK", "WR to data", {}, 0, kMaxTiming, "memory cycles"},
        {"dram.tCCD_S", T::UInt, "2", "tCK", "column to column, other bank group", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tCCD_L", T::UInt, "3", "tCK", "column to column, same bank group", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRRD_S", T::UInt, "4", "tCK", "ACT to ACT, other bank group", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tRRD_L", T::UInt, "6", "tCK", "ACT to ACT, same bank group", {}, 1, kMaxTiming, "memory cycles"},
        {"dram.tFAW", T::UInt, "16", "tCK", "four-activate window", {}, 0, kMaxTiming, "memory cycles"},
        {"dram.tWR", T::UInt, "16", "tCK", "write recovery", {}, 0, kMaxTiming, "memory cycles"},
        {"dram.tWTR", T::UInt, "8", "tCK", "write to read", {}, 0, kMaxTiming, "memory cycles"},
        {"dram.tRTP", T::UInt, "4", "tCK", "read to precharge", {}, 0, kMaxTiming, "memory cycles"},
        {"dram.tRFC", T::UInt, "220", "tCK", "refresh cycle", {}, 0, kMaxTiming},
        {"dram.tREFI", T::UInt, "3900", "tCK", "refresh interval (0: no refresh)", {}, 0, kMaxRefresh},
        {"dram.tBURST", T::UInt, "2", "tCK", "data-bus cycles of one burst", {}, 1, kMaxTiming, "memory cycles"},
        // Sampled simulation (models/dispatch/sampler.h): not the GPU, how much of it is timed.
        {"sample.mode", T::Choice, "off", "",
         "off: every workgroup is timed; auto: a kernel of at least sample.min_workgroups has its workgroups timed until "
         "its rate is steady, the rest of their classes projected (outputs say so)", {"off", "auto"}, 0},
        {"sample.min_workgroups", T::UInt, "1000", "workgroups", "with sample.mode auto: smaller launches run in full", {}, 1, 1e12},
        {"sample.warmup_rounds", T::Real, "1", "rounds",
         "occupancy rounds (workgroups the GPU holds at once) retired before the rate is measured", {}, 1, 1000},
        {"sample.window_rounds", T::Real, "1", "rounds",
         "one measurement window, in occupancy rounds of retirements (a round: retirements come in waves of that period)", {}, 0.01, 1000},
        {"sample.steady_windows", T::UInt, "3", "windows", "consecutive windows whose rates must agree within sample.tolerance", {}, 2, 8},
        {"sample.tolerance", T::Real, "0.05", "fraction",
         "steady: the windows' cycles differ by at most this fraction of their mean", {}, 0.0001, 1},
        // The host, not the GPU: the watchdog (sim/watchdog.h) ends a run past these with an error.
        {"sim.memory_limit_bytes", T::Size, "8G", "bytes",
         "a run whose resident memory grows past this stops with an error naming the kernel and cycle", {}, 64 << 20, 1024.0 * (1 << 30)},
        {"sim.stall_seconds", T::Real, "30", "seconds",
         "a run that issues no instruction for this long (wall clock) stops with an error naming the kernel and cycle", {}, 0.1, 86400,
         "a day"},
    };
    auto after = [&](const char* key, const auto& table) {
        auto at = std::find_if(defs.begin(), defs.end(), [&](const ParamDef& d) { return d.key == key; }) + 1;
        for (const auto& k : table.keys) at = defs.insert(at, k.def) + 1;
    };
    after("cu.wait_stores", lds_param_table());
    return defs;
}

const std::vector<ParamDef>& param_defs() {
    static const std::vector<ParamDef> defs = gather_param_defs();
    return defs;
}

const ParamDef* find_param(const std::string& key) {
    for (const auto& d : param_defs())
        if (d.key == key) return &d;
    return nullptr;
}

static std::string trim_spaces(const std::string& s) {
    size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A bound as a preset would write it (sizes with the largest of G, M, K that divides them).
static std::string bound_text(const ParamDef& d, double v) {
    char buf[40];
    const uint64_t u = uint64_t(v);
    if (d.type != ParamType::Real && v == double(u)) {
        for (const auto& [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
            if (d.type != ParamType::UInt && u && u % (uint64_t(1) << shift) == 0) return std::to_string(u >> shift) + suffix;
        return std::to_string(u);
    }
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// x against d's range; v is the text as given, for the message.
static void check_range(const ParamDef& d, double x, const std::string& v, const std::function<void(const std::string&)>& bad) {
    if (d.zero_off && x == 0) return;
    const std::string why = d.why ? std::string(" (") + d.why + ")" : "";
    if (d.zero_off && (x < d.min || x > d.max))
        bad("must be 0 or between " + bound_text(d, d.min) + " and " + bound_text(d, d.max) + why + ", not " + v);
    if (x < d.min) bad("must be at least " + bound_text(d, d.min) + ", not " + v);
    if (x > d.max) bad("must be at most " + bound_text(d, d.max) + why + ", not " + v);
}

static void check_value(const ParamDef& d, const std::string& v, const std::string& origin) {
    const std::function<void(const std::string&)> bad = [&](const std::string& why) {
        throw ConfigError(origin + ": key '" + d.key + "': " + why);
    };
    switch (d.type) {
        case ParamType::UInt:
        case ParamType::Size: {
            uint64_t x;
            bool digits_only = v.find_first_not_of("0123456789") == std::string::npos;
            if (!parse_size(v, x) || (d.type == ParamType::UInt && !digits_only))
                bad("'" + v + "' is not " + (d.type == ParamType::Size ? "a size (N, NK, NM or NG)" : "a whole number"));
            if (!d.choices.empty()) {
                std::string all;
                bool ok = false;
                for (const auto& c : d.choices) {
                    ok |= std::to_string(x) == c;
                    all += (all.empty() ? "" : ", ") + c;
                }
                if (!ok) bad("must be one of " + all + ", not " + v);
            }
            check_range(d, double(x), v, bad);
            break;
        }
        case ParamType::Real: {
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            // min > 0: must be positive (clocks); min 0: zero allowed
            if (v.empty() || *end != '\0' || !std::isfinite(x) || x < 0 || (d.min > 0 && !d.zero_off && x == 0))
                bad("'" + v + "' is not a " + (d.min > 0 && !d.zero_off ? "positive number" : "number >= 0"));
            check_range(d, x, v, bad);
            break;
        }
        case ParamType::SizeList: {
            std::string item;
            std::istringstream in(v);
            size_t n = 0;
            while (std::getline(in, item, ',')) {
                uint64_t x;
                if (!parse_size(trim_spaces(item), x)) bad("'" + item + "' is not a size (a list: N,NK,...)");
                check_range(d, double(x), trim_spaces(item), bad);
                if (++n > 64) bad("at most 64 sizes in the list");  // each is tried per kernel
            }
            break;
        }
        case ParamType::Choice: {
            for (const auto& c : d.choices)
                if (c == v) return;
            std::string all;
            for (const auto& c : d.choices) all += (all.empty() ? "" : ", ") + c;
            bad("must be one of " + all + ", not '" + v + "'");
        }
    }
}

Config::Config() {
    for (const auto& d : param_defs()) values_[d.key] = d.def;
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin) {
    const ParamDef* d = find_param(key);
    if (!d) throw ConfigError(origin + ": unknown key '" + key + "' (dcusim run --help lists them)");
    check_value(*d, value, origin);
    values_[key] = value;
    origins_[key] = origin;
}

const std::string& Config::origin(const std::string& key) const {
    static const std::string defaults = "built-in defaults (dcu-z100)";
    auto it = origins_.find(key);
    return it == origins_.end() ? defaults : it->second;
}

static std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Reads a preset file whole, refusing what cannot be one: a folder (an ifstream opens it and reads
// nothing: the defaults would run), or more than a preset could ever hold (/dev/zero reads forever).
static std::string read_preset_text(const std::string& path) {
    constexpr size_t kMaxBytes = 1 << 20;  // presets are a few KiB
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw ConfigError(path + ": is a folder, not a preset file");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw ConfigError(path + ": cannot open preset file");
    std::string text(kMaxBytes + 1, '\0');
    f.read(text.data(), std::streamsize(text.size()));
    if (f.bad()) throw ConfigError(path + ": cannot read preset file");
    text.resize(size_t(f.gcount()));
    if (text.size() > kMaxBytes) throw ConfigError(path + ": larger than 1 MiB: not a preset file");
    return text;
}

void Config::load_file(const std::string& path) { load_text(read_preset_text(path), path); }

void Config::load_text(const std::string& text, const std::string& path) {
    std::istringstream f(text);
    std::string line, section;
    std::map<std::string, std::string> first;  // key -> where this file set it
    for (unsigned n = 1; std::getline(f, line); ++n) {
        const std::string at = path + ":" + std::to_string(n);
        if (line.find('\0') != std::string::npos) throw ConfigError(at + ": a NUL byte: not a preset file");
        size_t c = line.find_first_of("#;");
        if (c != std::string::npos) line.resize(c);
        line = trim(line);
        if (line.empty()) continue;
        if (line.front() == '[') {
            if (line.back() != ']') throw ConfigError(at + ": malformed section header");
            section = trim(line.substr(1, line.size() - 2));
            continue;
        }
        size_t eq = line.find('=');
        if (eq == std::string::npos) throw ConfigError(at + ": expected 'key = value'");
        std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        if (!section.empty()) key = section + "." + key;
        if (value.empty()) throw ConfigError(at + ": key '" + key + "' has no value");
        // A second value would win without a word: which one the author meant is unknowable.
        auto [it, fresh] = first.emplace(key, at);
        if (!fresh) throw ConfigError(at + ": key '" + key + "' is set twice, first at line " + it->second.substr(path.size() + 1));
        set(key, value, at);
    }
    source_ = path;
}

uint64_t Config::u(const std::string& key) const {
    uint64_t x = 0;
    parse_size(values_.at(key), x);
    return x;
}

std::vector<uint64_t> Config::sizes(const std::string& key) const {
    std::vector<uint64_t> out;
    std::string item;
    std::istringstream in(values_.at(key));
    while (std::getline(in, item, ',')) {
        uint64_t x = 0;
        if (parse_size(trim_spaces(item), x)) out.push_back(x);
    }
    return out;
}

double Config::real(const std::string& key) const { return std::strtod(values_.at(key).c_str(), nullptr); }

const std::string& Config::str(const std::string& key) const { return values_.at(key); }

bool Config::is_set(const std::string& key) const { return origins_.count(key) != 0; }

std::string describe_params() {
    std::ostringstream o;
    o << "Preset keys (each also a flag: --KEY VALUE; sizes take K, M, G):\n";
    for (const auto& d : param_defs()) {
        std::string head = "  --" + d.key + " " + (d.type == ParamType::Choice ? "{" : "");
        if (d.type == ParamType::Choice) {
            for (size_t i = 0; i < d.choices.size(); ++i) head += (i ? "|" : "") + d.choices[i];
            head += "}";
        } else {
            head += "N";
        }
        o << head;
        for (size_t i = head.size(); i < 34; ++i) o << ' ';
        std::string range;
        if (d.type != ParamType::Choice && d.choices.empty())
            range = std::string("; ") + (d.zero_off ? "0 or " : "") + bound_text(d, d.min) + " to " + bound_text(d, d.max);
        o << ' ' << d.help << " [default " << d.def << (d.unit.empty() ? "" : " " + d.unit) << range << "]\n";
    }
    return o.str();
}

}  // namespace dcusim
