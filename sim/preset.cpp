#include "preset.h"

#include <algorithm>

namespace dcusim {

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

// A size as a preset would write it: the largest of G, M, K that divides it.
static std::string size_text(uint64_t v) {
    for (const auto& [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
        if (v && v % (uint64_t(1) << shift) == 0) return std::to_string(v >> shift) + suffix;
    return std::to_string(v);
}

// sample.*: each value is within its range already; none depends on another key.
static SampleParams sample_params(const Config& c) {
    SampleParams s;
    s.on = c.str("sample.mode") == "auto";
    s.min_workgroups = c.u("sample.min_workgroups");
    s.warmup_rounds = c.real("sample.warmup_rounds");
    s.window_rounds = c.real("sample.window_rounds");
    s.windows = uint32_t(c.u("sample.steady_windows"));
    s.tolerance = c.real("sample.tolerance");
    return s;
}

Preset make_preset(const Config& c) {
    // A check of values against each other names where the key was set; when the defaults set it,
    // where the other key it names was set (--cu.vgprs_per_simd 1 makes the default cu.max_vgprs too
    // many: the error points at the flag).
    auto err_with = [&](const std::string& key, std::vector<std::string> partners, const std::string& why) {
        std::string at = c.origin(key);
        const std::string defaults = c.origin("");
        for (const auto& d : param_defs())
            if (why.find(d.key) != std::string::npos) partners.push_back(d.key);
        for (size_t i = 0; at == defaults && i < partners.size(); ++i) at = c.origin(partners[i]);
        throw ConfigError(at + ": key '" + key + "': " + why);
    };
    auto err = [&](const std::string& key, const std::string& why) { err_with(key, {}, why); };
    // Sizes are 64-bit keys; the units keep most of them in 32 bits.
    auto u32 = [&](const char* key) {
        const uint64_t v = c.u(key);
        if (v > 0xffffffffull) err(key, "at most 4294967295");
        return uint32_t(v);
    };
    // Every value is within its key's range already (config.cpp declares them); what is left
    // here are the checks of values against each other.
    Preset p;
    p.cus = u32("cu.count");
    p.clock_mhz = c.real("cu.clock_mhz");
    CuParams& cu = p.cu;
    cu.wave_size = u32("cu.wave_size");
    cu.simds = u32("cu.simds");
    cu.waves_per_simd = u32("cu.waves_per_simd");
    cu.max_workgroups = u32("cu.max_workgroups");
    cu.vgprs_per_simd = u32("cu.vgprs_per_simd");
    cu.vgpr_granule = u32("cu.vgpr_granule");
    cu.max_vgprs = u32("cu.max_vgprs");
    cu.sgprs_per_simd = u32("cu.sgprs_per_simd");
    cu.sgpr_granule = u32("cu.sgpr_granule");
    cu.max_sgprs = u32("cu.max_sgprs");
    cu.issue_cycles = u32("cu.issue_cycles");
    cu.wave_issue_cycles = u32("cu.wave_issue_cycles");
    cu.long_issue_cycles = u32("cu.long_issue_cycles");
    cu.mid_issue_cycles = u32("cu.mid_issue_cycles");
    cu.workgroup_start_cycles = u32("cu.workgroup_start_cycles");
    cu.barrier_arrive_cycles = c.real("cu.barrier_arrive_cycles");
    cu.barrier_cycles = u32("cu.barrier_cycles");
    p.launch_cycles = u32("cu.launch_cycles");
    p.dispatch_cycles = c.real("cu.dispatch_cycles");
    cu.max_outstanding = u32("cu.max_outstanding");
    cu.wait_stores = c.str("cu.wait_stores") == "on";
    if (cu.max_vgprs > cu.vgprs_per_simd) err("cu.max_vgprs", "exceeds cu.vgprs_per_simd");

    lds_param_table().load(p.lds, c);  // declared beside LdsParams: no check of its own

    ConstParams& k = p.constant;
    k.geometry.size_bytes = c.u("const.size_bytes");
    k.geometry.line_bytes = u32("const.line_bytes");
    k.geometry.assoc = u32("const.assoc");
    k.replacement = c.str("const.replacement");
    k.latency = u32("const.latency");
    k.request_cycles = u32("const.request_cycles");
    k.replay_latency = u32("const.replay_latency");
    k.cus_per_cache = u32("const.cus_per_cache");
    k.divergent = c.str("const.divergent") == "serialize" ? ConstDivergence::Serialize : ConstDivergence::Vector;
    if (!pow2(k.geometry.line_bytes)) err("const.line_bytes", "must be a power of two");
    if (k.geometry.size_bytes % (uint64_t(k.geometry.line_bytes) * k.geometry.assoc) != 0)
        err("const.size_bytes", "must be a multiple of const.line_bytes x const.assoc");

    p.fixed_memory = c.str("mem.model") == "fixed";
    p.profiler = c.str("report.profiler");
    p.mem.latency = u32("mem.latency");

    auto check_lines = [&](const char* size, const char* line, const char* sector, const char* assoc, uint64_t parts) {
        uint64_t l = c.u(line), s = c.u(sector);
        if (!pow2(l)) err(line, "must be a power of two");
        if (!pow2(s) || s > l || l / s > 32)
            err(sector, std::string("must be a power of two dividing the line (") + line + "), at most 32 per line");
        const uint64_t unit = parts * l * c.u(assoc), v = c.u(size);
        if (v % unit != 0) {
            // Name the unit and the two sizes around the value, so a sweep's range can be fixed at once.
            std::string why = std::string("must be a multiple of ") + (parts > 1 ? "the channels x " : "") + "line x associativity (" +
                              (parts > 1 ? std::to_string(parts) + " x " : "") + std::to_string(l) + " x " + std::to_string(c.u(assoc)) +
                              " = " + size_text(unit) + "); nearest: ";
            if (v > unit) why += size_text(v / unit * unit) + " or ";
            err_with(size, {line, assoc, "l2.channels"}, why + size_text((v / unit + 1) * unit));
        }
    };
    L1Params& l1 = p.l1;
    check_lines("l1.size_bytes", "l1.line_bytes", "l1.sector_bytes", "l1.assoc", 1);
    l1.geometry = {c.u("l1.size_bytes"), u32("l1.line_bytes"), u32("l1.assoc")};
    l1.geometry.hashed_sets = c.str("l1.set_hash") == "on";
    l1.sector_bytes = u32("l1.sector_bytes");
    l1.replacement = c.str("l1.replacement");
    l1.hit_latency = u32("l1.hit_latency");
    l1.lookups_per_cycle = u32("l1.lookups_per_cycle");
    l1.mshrs = u32("l1.mshrs");
    l1.data_banks = u32("l1.data_banks");
    l1.data_bank_bytes = u32("l1.data_bank_bytes");
    l1.wave_size = p.cu.wave_size;
    l1.local_write_allocate = c.str("l1.local_write_allocate") == "on";
    p.l1_unified_bytes = c.u("l1.unified_bytes");
    p.lds_carveouts = c.sizes("lds.carveouts");
    p.lds_min_carveout = c.u("lds.min_carveout");
    std::sort(p.lds_carveouts.begin(), p.lds_carveouts.end());
    if (p.l1_unified_bytes) {
        const uint64_t unit = uint64_t(l1.geometry.line_bytes) * l1.geometry.assoc;
        for (uint64_t c : p.lds_carveouts)
            if (c >= p.l1_unified_bytes || (p.l1_unified_bytes - c) % unit)
                err("lds.carveouts", "each must leave the L1 a positive multiple of l1.line_bytes x l1.assoc of l1.unified_bytes");
        if (!p.lds_carveouts.empty() && p.lds_min_carveout > p.lds_carveouts.back())
            err("lds.min_carveout", "exceeds the largest of lds.carveouts");
        if (p.lds_carveouts.empty() || p.lds_carveouts.back() < p.lds.size_bytes)
            err("lds.carveouts", "the largest must be at least lds.size_bytes");
    }

    NocParams& n = p.noc;
    n.channels = u32("l2.channels");
    n.interleave_bytes = u32("l2.interleave_bytes");
    n.xor_hash = c.str("l2.xor_hash") == "on";
    n.latency = u32("noc.latency");
    n.bytes_per_cycle = u32("noc.bytes_per_cycle");
    n.store_bytes_per_cycle = c.real("noc.store_bytes_per_cycle");
    n.cu_store_bytes_per_cycle = c.real("noc.cu_store_bytes_per_cycle");
    n.cus = p.cus;
    n.load_bytes_per_cycle = c.real("noc.load_bytes_per_cycle");
    if (n.interleave_bytes % c.u("l2.line_bytes") != 0) err("l2.interleave_bytes", "must be a multiple of l2.line_bytes");

    L2Params& l2 = p.l2;
    check_lines("l2.size_bytes", "l2.line_bytes", "l2.sector_bytes", "l2.assoc", n.channels);
    l2.geometry = {c.u("l2.size_bytes") / n.channels, u32("l2.line_bytes"), u32("l2.assoc")};
    l2.sector_bytes = u32("l2.sector_bytes");
    l2.replacement = c.str("l2.replacement");
    l2.hit_latency = u32("l2.hit_latency");
    l2.atomic_latency = u32("l2.atomic_latency");
    l2.lookups_per_cycle = u32("l2.lookups_per_cycle");
    l2.mshrs = u32("l2.mshrs");
    l2.writeback_buffers = u32("l2.writeback_buffers");
    l2.writeback_cycles = u32("l2.writeback_cycles");
    l2.sides = {u32("l2.partitions"), n.channels, u32("l2.far_latency"), c.str("l2.replicate") == "on"};
    if (l2.sides.count > n.channels || l2.sides.count > p.cus) err("l2.partitions", "must be at most l2.channels and cu.count");
    if (l2.sides.replicating() && n.channels % l2.sides.count) err("l2.replicate", "needs l2.channels (" + std::to_string(n.channels) + ") to split evenly into l2.partitions (" +
                                std::to_string(l2.sides.count) + ")");
    n.sides = l2.sides;
    l2.channels = n.channels;
    l2.fetch_sectors = c.u("l2.fetch_bytes") ? u32("l2.fetch_bytes") / l2.sector_bytes : 1;
    if (c.u("l2.fetch_bytes") && (c.u("l2.fetch_bytes") % l2.sector_bytes || c.u("l2.line_bytes") % c.u("l2.fetch_bytes")))
        err("l2.fetch_bytes", "must be a multiple of l2.sector_bytes that divides l2.line_bytes");
    l2.partial_fetch = c.str("l2.partial_writes") == "fetch";
    p.l2_flush_at_launch = c.str("l2.flush_at_launch") == "on";
    p.l2_dirty_at_launch_lines = c.u("l2.dirty_at_launch_bytes") / c.u("l2.line_bytes");
    if (c.u("l2.dirty_at_launch_bytes") > c.u("l2.size_bytes")) err("l2.dirty_at_launch_bytes", "exceeds l2.size_bytes");
    l2.dirty_limit_sectors = c.u("l2.dirty_limit_bytes") / n.channels / l2.sector_bytes;
    if (c.u("l2.dirty_limit_bytes") && !l2.dirty_limit_sectors) err("l2.dirty_limit_bytes", "leaves no sector per L2 channel");
    l2.interleave_bytes = n.interleave_bytes;
    l1.write_grain = std::min(l1.sector_bytes, l2.sector_bytes);  // a store's bytes, as finely as either level keeps them
    if (l1.geometry.line_bytes / l1.write_grain > 32) err("l2.sector_bytes", "leaves more than 32 sectors of the smaller size in an L1 line");
    if (l1.geometry.line_bytes > l2.geometry.line_bytes || l2.geometry.line_bytes % l1.geometry.line_bytes)
        err("l1.line_bytes", "must divide l2.line_bytes");

    p.memory_limit_bytes = c.u("sim.memory_limit_bytes");
    p.stall_seconds = c.real("sim.stall_seconds");

    DramParams& d = p.dram;
    d.clock_mhz = c.real("dram.clock_mhz");
    d.channels = u32("dram.channels");
    d.bank_groups = u32("dram.bank_groups");
    d.banks_per_group = u32("dram.banks_per_group");
    if (uint64_t(d.bank_groups) * d.banks_per_group > 1024)
        err("dram.banks_per_group", "at most 1024 banks per channel (dram.bank_groups x dram.banks_per_group)");
    d.row_bytes = u32("dram.row_bytes");
    d.burst_bytes = u32("dram.burst_bytes");
    d.interleave_bytes = u32("dram.interleave_bytes");
    d.queue_depth = u32("dram.queue_depth");
    d.latency_cycles = u32("dram.latency_cycles");
    if (d.interleave_bytes % d.burst_bytes) err("dram.interleave_bytes", "must be a multiple of dram.burst_bytes");
    if (d.row_bytes % d.interleave_bytes) err("dram.row_bytes", "must be a multiple of dram.interleave_bytes");
    DramTiming& t = d.t;
    t.RCD = u32("dram.tRCD");
    t.RCDWR = u32("dram.tRCDWR");
    t.RP = u32("dram.tRP");
    t.RAS = u32("dram.tRAS");
    t.RC = u32("dram.tRC");
    t.CL = u32("dram.tCL");
    t.WL = u32("dram.tWL");
    t.CCD_S = u32("dram.tCCD_S");
    t.CCD_L = u32("dram.tCCD_L");
    t.RRD_S = u32("dram.tRRD_S");
    t.RRD_L = u32("dram.tRRD_L");
    t.FAW = u32("dram.tFAW");
    t.WR = u32("dram.tWR");
    t.WTR = u32("dram.tWTR");
    t.RTP = u32("dram.tRTP");
    t.RFC = u32("dram.tRFC");
    t.REFI = u32("dram.tREFI");
    t.BURST = u32("dram.tBURST");
    // Between two refreshes one access must fit: a refresh falling due before a command comes first
    // and closes the bank, so with tRCD past the window no burst is ever served (a user's tRCD =
    // 65536 ran for ever). An access: the whole row cycle, or a read, or a write and its recovery.
    const uint64_t access = std::max({uint64_t(t.RC), uint64_t(t.RCD) + t.CL + t.BURST,
                                      uint64_t(t.RCDWR) + t.WL + t.BURST + t.WTR + t.WR});
    if (t.REFI && uint64_t(t.REFI) <= uint64_t(t.RP) + t.RFC + access) {
        // Name the timing the user set (the defaults are consistent), tREFI first.
        const char* key = "dram.tREFI";
        for (const char* k : {"dram.tREFI", "dram.tRCD", "dram.tRCDWR", "dram.tRC", "dram.tRFC", "dram.tRP", "dram.tCL",
                              "dram.tWL", "dram.tWR", "dram.tWTR", "dram.tBURST"})
            if (c.origin(k) != c.origin("")) {
                key = k;
                break;
            }
        err(key, "dram.tREFI must be 0 (no refresh) or more than tRP + tRFC + one access (" +
                     std::to_string(uint64_t(t.RP) + t.RFC + access) + "): a refresh must leave time for an access");
    }
    // Tree pseudo-LRU splits each set in halves down to single ways.
    for (const char* cache : {"const", "l1", "l2"}) {
        const std::string key = std::string(cache) + ".replacement", assoc = std::string(cache) + ".assoc";
        const uint64_t a = c.u(assoc.c_str());
        if (c.str(key.c_str()) == "plru" && (!pow2(a) || a > 64))
            err(key.c_str(), "plru needs a power-of-two " + assoc + " of at most 64");
    }
    p.sample = sample_params(c);
    // Limits of the simulator, not of any hardware: every unit and every cache line has state
    // allocated up front, so past these a run would exhaust the host instead of failing here.
    constexpr uint64_t kMaxLines = 1ull << 25;  // cache lines of all caches together
    const uint64_t const_caches = (uint64_t(p.cus) + k.cus_per_cache - 1) / k.cus_per_cache;
    const std::pair<const char*, uint64_t> lines[] = {
        {"l1.size_bytes", uint64_t(p.cus) * (std::max(l1.geometry.size_bytes, p.l1_unified_bytes) / l1.geometry.line_bytes)},
        {"l2.size_bytes", c.u("l2.size_bytes") / l2.geometry.line_bytes},
        {"const.size_bytes", const_caches * (k.geometry.size_bytes / k.geometry.line_bytes)},
    };
    uint64_t all_lines = 0;
    for (const auto& l : lines) all_lines += l.second;
    if (all_lines > kMaxLines) {
        const auto& most = *std::max_element(std::begin(lines), std::end(lines),
                                             [](const auto& a, const auto& b) { return a.second < b.second; });
        err(most.first, "the caches would hold " + std::to_string(all_lines) + " lines in all, at most " +
                            std::to_string(kMaxLines) + " (a limit of dcusim: each line's tag is kept)");
    }
    return p;
}

}  // namespace dcusim
