#include "l2_warmer.h"

#include <algorithm>

namespace dcusim {

void L2Warmer::workgroup(const std::vector<trace::WaveTrace>& waves) {
    const uint32_t cu = uint32_t(next_cu_++ % cus_);
    for (const trace::WaveTrace& w : waves)
        for (const trace::Instr& in : w.instrs)
            if (in.kind == trace::RecKind::Mem && in.mask && (in.space == trace::Space::Global || in.space == trace::Space::Local))
                instruction(cu, w, in);
}

// The bytes [a, end) of one lane, or of a run of lanes, added to the instruction's lines.
void L2Warmer::add_bytes(uint64_t a, uint64_t end) {
    while (a < end) {
        const uint64_t line_no = line_.div(a), base = line_no * line_.value();
        const uint64_t line_end = std::min(end, base + line_.value());
        // Lanes mostly walk forward: the line is the last one, or one of the few before it.
        auto it = std::find_if(lines_.rbegin(), lines_.rend(), [&](const Line& l) { return l.line_no == line_no; });
        Line* l = it == lines_.rend() ? nullptr : &*it;
        if (!l) l = &lines_.emplace_back(Line{line_no, 0, {}});
        for (uint64_t sector = sector_.div(a - base); a < line_end; ++sector) {
            const uint64_t upto = std::min(line_end, base + (sector + 1) * sector_.value());
            l->sectors |= 1u << sector;
            l->bytes[sector] += uint32_t(upto - a);
            a = upto;
        }
    }
}

// The lines an instruction's active lanes touch, each with its sectors, then one access per line: the
// L1's coalescing, without its timing. Lanes of one contiguous range (affine, each lane's bytes
// abutting the next's) are added as that range.
void L2Warmer::instruction(uint32_t cu, const trace::WaveTrace& w, const trace::Instr& in) {
    lines_.clear();
    const uint64_t bytes = std::max<uint64_t>(in.bytes, 1), m = in.mask;
    const unsigned first = unsigned(__builtin_ctzll(m)), last = unsigned(63 - __builtin_clzll(m));
    const bool run = ((m >> first) & ((m >> first) + 1)) == 0;  // the active lanes are consecutive
    if (in.mode == trace::AddrMode::Affine && run && (in.stride == int64_t(bytes) || first == last)) {
        const uint64_t lo = in.base + uint64_t(first) * bytes;
        add_bytes(lo, lo + uint64_t(last - first + 1) * bytes);
    } else {
        w.for_each_lane(in, [&](unsigned, uint64_t addr) { add_bytes(addr, addr + bytes); });
    }
    for (const Line& l : lines_) {
        uint32_t full = 0;
        for (uint32_t s = 0; s < per_line_; ++s)
            if (l.bytes[s] >= sector_.value()) full |= 1u << s;
        access(cu, {l.line_no, in.op == trace::Op::Load ? l1_blocks(l.sectors) : l.sectors, full, in.op});
    }
}

// A load misses in the L1 by whole L1 sectors (whole lines where it is not sectored): the L2 sees those.
uint32_t L2Warmer::l1_blocks(uint32_t sectors) const {
    if (per_fetch_ <= 1) return sectors;
    const uint32_t group = per_fetch_ >= 32 ? ~0u : (1u << per_fetch_) - 1;  // (a shift by 32 is undefined)
    uint32_t out = 0;
    for (uint32_t s = 0; s < per_line_; s += per_fetch_)
        if (sectors & (group << s)) out |= group << s;
    return out;
}

void L2Warmer::access(uint32_t cu, const Access& a) {
    auto add = [this](L2Slice::WarmTraffic t) {
        read_sectors_ += t.read_sectors;
        written_sectors_ += t.written_sectors;
    };
    const uint32_t home = map_.channel_of(a.line_no * line_.value());
    const uint32_t side = sides_.side_of_cu(cu);
    // A load or store of a CU on another side than the home's goes through its side's copy.
    if (sides_.replicating() && a.op != trace::Op::Atomic && side != sides_.side_of_channel(home))
        add(slices_[sides_.mirror(home, side)]->warm(a.line_no, a.sectors, a.full, a.op, true));
    add(slices_[home]->warm(a.line_no, a.sectors, a.full, a.op, false));
    if (sides_.replicating() && a.op != trace::Op::Load)
        link_->drop_copies(home, a.line_no, a.op == trace::Op::Atomic ? sides_.count : side);
}

}  // namespace dcusim
