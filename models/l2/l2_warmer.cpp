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

// The bytes [a, end) of one lane added to the instruction's lines.
void L2Warmer::add_bytes(uint64_t a, uint64_t end) {
    while (a < end) {
        const uint64_t line_no = line_.div(a), base = line_no * line_.value();
        const uint64_t line_end = std::min(end, base + line_.value());
        // Lanes mostly walk forward: the line is the last one, or one of the few before it, or past
        // every line so far (lanes a line or more apart: no search).
        Line* l = nullptr;
        if (!lines_.empty() && line_no >= lines_low_ && line_no <= lines_high_) {
            auto it = std::find_if(lines_.rbegin(), lines_.rend(), [&](const Line& x) { return x.line_no == line_no; });
            if (it != lines_.rend()) l = &*it;
        }
        if (!l) {
            l = &lines_.emplace_back(Line{line_no, 0, {}});
            lines_low_ = lines_.size() == 1 ? line_no : std::min(lines_low_, line_no);
            lines_high_ = lines_.size() == 1 ? line_no : std::max(lines_high_, line_no);
        }
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
// abutting the next's) are that range's lines, in order (range()).
void L2Warmer::instruction(uint32_t cu, const trace::WaveTrace& w, const trace::Instr& in) {
    const uint64_t bytes = std::max<uint64_t>(in.bytes, 1), m = in.mask;
    const unsigned first = unsigned(__builtin_ctzll(m)), last = unsigned(63 - __builtin_clzll(m));
    const bool run = ((m >> first) & ((m >> first) + 1)) == 0;  // the active lanes are consecutive
    if (in.mode == trace::AddrMode::Affine && run && (in.stride == int64_t(bytes) || first == last)) {
        // The first lane's address (one lane alone may be any stride from the base).
        const uint64_t lo = in.base + uint64_t(int64_t(first) * in.stride);
        return range(cu, lo, lo + uint64_t(last - first + 1) * bytes, in.op);
    }
    lines_.clear();
    w.for_each_lane(in, [&](unsigned, uint64_t addr) { add_bytes(addr, addr + bytes); });
    for (const Line& l : lines_) {
        uint32_t full = 0;
        for (uint32_t s = 0; s < per_line_; ++s)
            if (l.bytes[s] >= sector_.value()) full |= 1u << s;
        access(cu, {l.line_no, in.op == trace::Op::Load ? l1_blocks(l.sectors) : l.sectors, full, in.op});
    }
}

// The accesses of the bytes [a, end) in one piece, line by line, as add_bytes would gather them (each
// line once, in order; a sector is written whole where the range covers it), with no list of lines:
// most instructions of a trace are such a range, and most of those lie in one line.
void L2Warmer::range(uint32_t cu, uint64_t a, uint64_t end, trace::Op op) {
    while (a < end) {
        const uint64_t line_no = line_.div(a), base = line_no * line_.value();
        const uint64_t from = a - base, to = std::min(end - base, line_.value());  // within the line
        const uint64_t s0 = sector_.div(from), s1 = sector_.div(to - 1);
        const uint32_t sectors = uint32_t((uint64_t(2) << s1) - (uint64_t(1) << s0));  // s0 to s1
        uint32_t full = sectors;
        if (from != s0 * sector_.value()) full &= ~(1u << s0);       // begins inside its first sector
        if (to != (s1 + 1) * sector_.value()) full &= ~(1u << s1);   // ends inside its last
        access(cu, {line_no, op == trace::Op::Load ? l1_blocks(sectors) : sectors, full, op});
        a = base + to;
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
