// An L2 slice's parameters and their preset keys (l2.*, but the channel map of models/noc and the
// launch behaviour of models/gpu) and their checks, each field declared beside its key
// (models/common/params.h): a new key is one edit here. The sizes are the whole L2's; a slice
// keeps its channel's share.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../cache/cache_params.h"
#include "../cache/tag_array.h"
#include "../noc/noc_params.h"
#include "partitions.h"

namespace dcusim {

struct L2Params {
    CacheGeometry geometry{262144, 128, 16};  // one slice
    uint32_t sector_bytes = 32;
    std::string replacement = "lru";
    uint32_t hit_latency = 60;
    uint32_t atomic_latency = 80;
    // The atomic unit (atomic_unit.h): cycles per sector a pass touches, and between two operations on
    // one address (0 and 0: no limit). DCU: assumed, a GCN TCC channel's one 64-byte access a cycle.
    double atomic_sector_cycles = 1;
    double atomic_same_address_cycles = 1;
    // The same for atomics the trace marks integer or floating point (`pc PC atomic int|float`; 0: as an
    // atomic of unknown kind).
    double atomic_int_same_address_cycles = 0;
    double atomic_float_same_address_cycles = 0;
    bool atomic_in_order = false;  // a request waiting on its word's chain holds the unit (l2.atomic_order)
    uint32_t lookups_per_cycle = 1;
    uint32_t mshrs = 256;
    // The channel interleave, so a slice indexes its sets with the address
    // bits that do not pick the channel.
    uint32_t channels = 1;  // channels consecutive chunks go round (ChannelMap::run_channels)
    uint32_t interleave_bytes = 256;
    BitSwaps swaps;  // the channel map's address bit swaps (l2.swap_bits), which the set index follows
    uint32_t fetch_sectors = 1;  // DRAM fetch granularity in sectors (aligned groups)
    // A sector written only in part: fetched at once, merged and written back (read-modify-write), or kept
    // dirty and written back with a byte mask, fetched only when read.
    bool partial_fetch = false;
    // With partial_fetch: cycles from the store that leaves a sector written in part to its fetch; stores
    // that write the rest of its words by then complete it, and it is not fetched (0: fetched at once).
    uint32_t partial_fetch_delay = 0;
    // With partial_fetch: the most lines with sectors written in part a slice holds; a store that leaves one
    // more line in part fetches the oldest such line's sectors (0: no limit). When set, the delay is not used.
    uint32_t partial_lines = 0;
    // With partial_fetch_delay: the delay counts from the line's latest store in part, not its first.
    bool partial_fetch_restart = false;
    uint64_t dirty_limit_sectors = 0;  // most dirty sectors kept; beyond, the oldest dirty line is written back (0: no limit)
    // The limit held by each set, in its share (the slice's limit over its sets): past it the set's least
    // recently used dirty line is written back, whatever the rest of the slice holds.
    bool dirty_per_set = false;
    uint32_t writeback_buffers = 256;  // write-backs in flight to DRAM; while all are busy the tag port waits (0: no limit)
    // The slice's path to DRAM writes: one write-back, or one fetch that completes sectors written in
    // part (read-modify-write), leaves every this many cycles (0: no limit).
    uint32_t writeback_cycles = 0;
    L2Partitions sides;
    uint32_t index = 0;  // this slice's channel
};

// The keys of which a slice keeps its channel's share: their defaults are the initialisers of
// one slice times the default channels.
inline std::vector<ParamKey<L2Params>> l2_param_keys() {
    using P = L2Params;
    using namespace limits;
    const P d{};
    const uint64_t channels = NocParams{}.channels;
    return {
        param::derived<P>({"l2.size_bytes", ParamType::Size, param_size_text(d.geometry.size_bytes * channels), "bytes",
                           "L2, all channels", {}, 1, kMaxBigBytes},
                          [](P& p, const ParamValues& v) { p.geometry.size_bytes = v.u("l2.size_bytes") / v.u("l2.channels"); }),
        param::count<P>("l2.line_bytes", "bytes", "L2 line", {4, kMaxLineBytes}, [](P& p) -> auto& { return p.geometry.line_bytes; }),
        param::count<P>("l2.sector_bytes", "bytes", "L2 sector", {4, kMaxLineBytes}, &P::sector_bytes),
        param::count<P>("l2.assoc", "ways", "L2 associativity", {1, kMaxAssoc}, [](P& p) -> auto& { return p.geometry.assoc; }),
        param::choice<P>("l2.set_hash",
                         "off: a line's set in its slice is its index (the line number without the channel digits) mod the "
                         "sets; on: hashed, so that lines a multiple of the sets apart spread over them",
                         {{"on", true}, {"off", false}}, [](P& p) -> auto& { return p.geometry.hashed_sets; }),
        param::choice_text<P>("l2.replacement", "L2 replacement policy", replacement_names(), &P::replacement),
        param::count<P>("l2.hit_latency", "cycles", "L2 lookup to data", {0, kMaxLatency}, &P::hit_latency),
        param::count<P>("l2.atomic_latency", "cycles", "L2 lookup to atomic result", {0, kMaxLatency}, &P::atomic_latency),
        param::real<P>("l2.atomic_sector_cycles", "cycles",
                       "per channel, the atomic unit's cycles for each sector an atomic pass touches (a request's first "
                       "pass: its sectors; each lane sharing an address with another takes a pass of one) (0: no limit)",
                       {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::atomic_sector_cycles),
        param::real<P>("l2.atomic_same_address_cycles", "cycles",
                       "from one atomic operation on an address to the next on it (each reads the one before's result) (0: no limit)",
                       {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::atomic_same_address_cycles),
        param::real<P>("l2.atomic_int_same_address_cycles", "cycles",
                       "l2.atomic_same_address_cycles for atomics the trace marks integer (0: that value)",
                       {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::atomic_int_same_address_cycles),
        param::real<P>("l2.atomic_float_same_address_cycles", "cycles",
                       "l2.atomic_same_address_cycles for atomics the trace marks floating point (0: that value)",
                       {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::atomic_float_same_address_cycles),
        param::choice<P>("l2.atomic_order",
                         "interleave: requests whose word's chain is busy leave the atomic unit to others; in_order: the unit "
                         "takes requests as they come, and one waiting on its word's chain holds it",
                         {{"interleave", false}, {"in_order", true}}, &P::atomic_in_order),
        param::count<P>("l2.lookups_per_cycle", "lines/cycle", "L2 tag port per channel", {1, 64}, &P::lookups_per_cycle),
        param::count<P>("l2.mshrs", "lines", "L2 misses in flight per channel", {1, kMaxMshrs, "a limit of dcusim"}, &P::mshrs),
        param::count<P>("l2.writeback_buffers", "lines",
                        "write-backs in flight to DRAM per channel; while all are busy the channel takes no lookup (0: no limit)",
                        {0, kMaxMshrs}, &P::writeback_buffers),
        param::count<P>("l2.writeback_cycles", "cycles",
                        "per channel, cycles between two DRAM writes (write-backs, and fetches that complete sectors written in part) "
                        "(0: no limit)",
                        {0, kMaxLatency}, &P::writeback_cycles),
        param::count<P>("l2.partitions", "sides",
                        "sides joined by a link: the L2 channels split into this many in index order, the CUs take them in turn; "
                        "a miss for a line homed on another side crosses the link to memory",
                        {1, kMaxUnits}, [](P& p) -> auto& { return p.sides.count; }),
        param::choice<P>("l2.replicate",
                         "each side keeps clean copies of the lines its CUs use: loads and stores go to the CU's own side, a missing "
                         "copy is fetched from the line's home over the link, stores are written through to it (l2.channels must "
                         "split evenly into l2.partitions)",
                         {{"on", true}, {"off", false}}, [](P& p) -> auto& { return p.sides.replicate; }),
        param::choice<P>("l2.store_copies",
                         "with l2.replicate: on, a store keeps a clean copy of its line on the CU's side; off, it updates a copy "
                         "that side holds and allocates none (only loads make copies)",
                         {{"on", true}, {"off", false}}, [](P& p) -> auto& { return p.sides.store_copies; }),
        param::count<P>("l2.far_latency", "cycles", "added each way to a request that crosses the link between sides", {0, kMaxLatency},
                        [](P& p) -> auto& { return p.sides.far_latency; }),
        param::real<P>("l2.link_sectors_per_cycle", "sectors/cycle",
                       "with l2.replicate: sectors of data the link carries from one side to another each cycle, each way "
                       "(a copy's fetch coming back, a store written through to its home); may be fractional (0: no limit)",
                       {kTick, 1e6, "kept in 1/1024 cycles", true}, [](P& p) -> auto& { return p.sides.link_sectors_per_cycle; }),
        param::choice<P>("l2.partial_writes",
                         "a sector a store writes only in part: fetch (read from DRAM at once, merged, written back: "
                         "read-modify-write) or mask (kept dirty, written back with a byte mask, fetched only when read)",
                         {{"fetch", true}, {"mask", false}}, &P::partial_fetch),
        param::count<P>("l2.partial_fetch_delay", "cycles",
                        "with l2.partial_writes = fetch: from the store that leaves a sector written in part to its fetch; "
                        "stores that write the rest of the sector's words by then complete it without a fetch (0: at once; not used with "
                        "l2.partial_lines)",
                        {0, kMaxLatency}, &P::partial_fetch_delay),
        param::count<P>("l2.partial_lines", "lines",
                        "with l2.partial_writes = fetch: the most lines with sectors written in part a slice holds; a store "
                        "that leaves one more line in part fetches the oldest one's sectors at once, and stores that write "
                        "a held sector's other words complete it without a fetch (0: no limit; when set, "
                        "l2.partial_fetch_delay is not used)",
                        {0, 1 << 20}, &P::partial_lines),
        param::choice<P>("l2.dirty_scope",
                         "what l2.dirty_limit_bytes bounds: the whole L2 (cache: past it the line dirty longest is written "
                         "back) or each set, in an even share of it (set: past its share a set writes back its least "
                         "recently used dirty line)",
                         {{"cache", false}, {"set", true}}, &P::dirty_per_set),
        param::choice<P>("l2.partial_fetch_from",
                         "with l2.partial_fetch_delay: the delay counts from the store that left the sector in part "
                         "(first) or from the line's latest store that left one of its sectors in part (latest: each restarts it)",
                         {{"first", false}, {"latest", true}}, &P::partial_fetch_restart),
        // fetch_sectors 1: the missing sectors only, which the key says as 0.
        param::derived<P>({"l2.fetch_bytes", ParamType::UInt,
                           d.fetch_sectors == 1 ? "0" : std::to_string(d.fetch_sectors * d.sector_bytes), "bytes",
                           "DRAM fetch granularity: a miss fetches every sector of the aligned block this size (0: the missing "
                           "sectors only)",
                           {}, 0, kMaxLineBytes},
                          [](P& p, const ParamValues& v) {
                              const uint64_t f = v.u("l2.fetch_bytes");
                              p.fetch_sectors = f ? uint32_t(f / v.u("l2.sector_bytes")) : 1;
                          }),
        param::derived<P>({"l2.dirty_limit_bytes", ParamType::Size,
                           param_size_text(d.dirty_limit_sectors * channels * d.sector_bytes), "bytes",
                           "most dirty data the L2 keeps; past it the oldest dirty lines are written back (0: only on eviction)",
                           {}, 0, kMaxBigBytes},
                          [](P& p, const ParamValues& v) {
                              p.dirty_limit_sectors = v.u("l2.dirty_limit_bytes") / v.u("l2.channels") / v.u("l2.sector_bytes");
                          }),
    };
}

// In the order they ran before the keys moved to their units (the L1's carve-outs among them:
// models/l1/l1_params.h).
inline std::vector<ParamCheck<L2Params>> l2_param_checks() {
    using P = L2Params;
    return {
        [](const P&, const ParamValues& v, const ParamErrors& e) {
            check_cache_lines(v, e, "l2.size_bytes", "l2.line_bytes", "l2.sector_bytes", "l2.assoc", v.u("l2.channels"));
        },
        [](const P& p, const ParamValues& v, const ParamErrors& e) {
            const uint64_t channels = v.u("l2.channels");
            if (p.sides.count > channels || p.sides.count > v.u("cu.count"))
                e.fail("l2.partitions", "must be at most l2.channels and cu.count");
            if (p.sides.replicate && p.sides.count > 1 && channels % p.sides.count)
                e.fail("l2.replicate", "needs l2.channels (" + std::to_string(channels) + ") to split evenly into l2.partitions (" +
                                           std::to_string(p.sides.count) + ")");
        },
        [](const P& p, const ParamValues& v, const ParamErrors& e) {
            const uint64_t f = v.u("l2.fetch_bytes");
            if (f && (f % p.sector_bytes || p.geometry.line_bytes % f))
                e.fail("l2.fetch_bytes", "must be a multiple of l2.sector_bytes that divides l2.line_bytes");
            // The dirty data a profiler leaves (the platform's key) must fit.
            if (v.u("l2.dirty_at_launch_bytes") > v.u("l2.size_bytes")) e.fail("l2.dirty_at_launch_bytes", "exceeds l2.size_bytes");
            if (v.u("l2.dirty_limit_bytes") && !p.dirty_limit_sectors) e.fail("l2.dirty_limit_bytes", "leaves no sector per L2 channel");
            if (p.dirty_per_set && p.dirty_limit_sectors && p.dirty_limit_sectors * 2 < p.geometry.sets())
                e.fail("l2.dirty_scope", "set: l2.dirty_limit_bytes leaves less than half a sector per set");
            // A sector completed by words: a line's words in 32 bits, a sector of whole words.
            const bool words_fit = p.geometry.line_bytes <= 128 && p.sector_bytes % 4 == 0;
            for (const auto& [key, set] : {std::pair{"l2.partial_fetch_delay", p.partial_fetch_delay != 0},
                                           std::pair{"l2.partial_lines", p.partial_lines != 0}})
                if (set && !words_fit) e.fail(key, "needs l2.line_bytes of at most 128 and l2.sector_bytes a multiple of 4");
        },
        // The L1's lines above: a store names the grains it writes whole, as finely as either level keeps them.
        [](const P& p, const ParamValues& v, const ParamErrors& e) {
            const uint64_t l1_line = v.u("l1.line_bytes"), grain = std::min(uint64_t(p.sector_bytes), v.u("l1.sector_bytes"));
            if (l1_line / grain > 32) e.fail("l2.sector_bytes", "leaves more than 32 sectors of the smaller size in an L1 line");
            if (l1_line > p.geometry.line_bytes || p.geometry.line_bytes % l1_line) e.fail("l1.line_bytes", "must divide l2.line_bytes");
        },
        {[](const P&, const ParamValues& v, const ParamErrors& e) { check_plru(v, e, "l2"); }, CheckPhase::Late},
    };
}

// Its keys, in the order `dcusim --help` lists them (the channel map's before them, in
// noc_params.h); defaults are the initialisers above.
inline const ParamTable<L2Params>& l2_param_table() {
    static const ParamTable<L2Params> table{l2_param_keys(), l2_param_checks()};
    return table;
}

}  // namespace dcusim
