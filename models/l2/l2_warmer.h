// Functional warming of the L2 for sampled simulation (sample.warm = l2; docs/ARCHITECTURE.md,
// "Sampled simulation"): a skipped workgroup's global and local accesses leave in the L2 the lines,
// sectors and dirty data they would have left, at once and untimed, as SMARTS keeps its caches warm
// between measured units (Wunderlich et al., ISCA 2003). The skipped work then shapes what the next
// measured workgroups find: an L2 that fills, dirty data at its limit, lines already brought in.
// Each access goes to the slice the crossbar would send it to (a copy on the CU's side, its home);
// the CUs take skipped workgroups in turn. The L1s are left as they are (each CU's is small and
// refills within a workgroup), so every access reaches the L2, as a miss in the L1 would.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "../common/divisor.h"
#include "../noc/channel_map.h"
#include "l2_link.h"
#include "l2_slice.h"

namespace dcusim {

class L2Warmer {
public:
    struct Geometry {
        uint32_t line_bytes = 128, sector_bytes = 32;  // the L2's
        uint32_t l1_fetch_bytes = 32;  // what an L1 load miss asks for: its sector (its line when not sectored)
        uint32_t cus = 1;
    };
    L2Warmer(std::vector<L2Slice*> slices, ChannelMap map, L2Partitions sides, L2LinkIf* link, Geometry g)
        : slices_(std::move(slices)), map_(map), sides_(sides), link_(link), cus_(g.cus), line_(g.line_bytes),
          sector_(g.sector_bytes), per_line_(g.line_bytes / g.sector_bytes),
          per_fetch_(std::max<uint32_t>(1, std::min(g.l1_fetch_bytes, g.line_bytes) / g.sector_bytes)),
          copy_of_(copies(sides_, uint32_t(slices_.size()))) {}
    // A skipped workgroup's waves, as its trace holds them.
    void workgroup(const std::vector<trace::WaveTrace>& waves);
    // One access of a CU to a line: `sectors` touched, `full` of them written whole (stores).
    struct Access {
        uint64_t line_no;
        uint32_t sectors, full;
        trace::Op op;
    };
    void access(uint32_t cu, const Access& a);
    // The DRAM traffic the warmed accesses stand for since the last reset, in bytes: the L2's fetches and
    // its victims' write-backs (sectors written in part are not fetched here).
    uint64_t read_bytes() const { return read_sectors_ * sector_.value(); }
    uint64_t written_bytes() const { return written_sectors_ * sector_.value(); }
    void reset_traffic() { read_sectors_ = written_sectors_ = 0; }
    uint64_t workgroups() const { return next_cu_; }  // warmed so far

private:
    // These take the side of the CU the workgroup runs on.
    void instruction(uint32_t side, const trace::WaveTrace& w, const trace::Instr& in);
    void add_bytes(uint64_t a, uint64_t end);
    void range(uint32_t side, uint64_t a, uint64_t end, trace::Op op);
    void affine(uint32_t side, const trace::Instr& in);
    // A workgroup's accesses are gathered, then applied in order with the tag sets of the next few
    // brought into the host's cache first: the sets of a large L2 are cold, and their misses overlap.
    struct Routed {
        Access a;
        uint32_t side, home, copy;  // side: the CU's; copy: the slice of its side's copy, or kNoCopy
        uint32_t dropped;           // a slice whose copy a store drops (kNoCopy: none)
    };
    static constexpr uint32_t kNoCopy = ~0u;
    Routed route(uint32_t side, const Access& a) const;
    void gather(uint32_t side, const Access& a) { routed_.push_back(route(side, a)); }
    void apply(const Routed& r);
    std::vector<Routed> routed_;
    // The slice of side s's copy of a line homed on channel c, at s * channels + c (kNoCopy: none, the
    // home is on that side or the sides keep no copies); built once, as the channels' sides are fixed.
    static std::vector<uint32_t> copies(const L2Partitions& sides, uint32_t channels);

    std::vector<L2Slice*> slices_;
    ChannelMap map_;
    L2Partitions sides_;
    L2LinkIf* link_;
    uint32_t cus_;
    Divisor line_, sector_;
    uint32_t per_line_;
    uint32_t per_fetch_;  // L2 sectors in what an L1 load miss asks for
    std::vector<uint32_t> copy_of_;
    uint32_t l1_blocks(uint32_t sectors) const;  // sectors grown to whole L1 fetches
    uint64_t next_cu_ = 0;
    uint64_t read_sectors_ = 0, written_sectors_ = 0;
    // One instruction's lines, in the order its lanes first touch them.
    struct Line {
        uint64_t line_no;
        uint32_t sectors;
        uint32_t bytes[32];  // bytes written per sector (stores: a sector is written whole at sector_bytes)
    };
    Access line_access(const Line& l, trace::Op op) const;  // one of an instruction's lines
    void shape_lines(const trace::Instr& in, uint64_t base_addr, std::vector<Access>& out);
    // Affine instructions' accesses by shape, their lines numbered from the first lane's (affine()).
    struct Shape {
        int64_t stride = 0;
        uint64_t mask = 0;
        uint32_t bytes = 0;
        uint64_t offset = ~uint64_t(0);  // the base's place in its line (none yet)
        trace::Op op{};
        std::vector<Access> lines;
    };
    std::array<Shape, 64> shapes_;
    std::vector<Line> lines_;
    uint64_t lines_low_ = 0, lines_high_ = 0;  // the lowest and highest line in lines_
};

}  // namespace dcusim
