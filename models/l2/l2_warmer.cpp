#include "l2_warmer.h"

#include <algorithm>

namespace dcusim {

void L2Warmer::workgroup(const std::vector<trace::WaveTrace>& waves) {
    const uint32_t side = sides_.side_of_cu(uint32_t(next_cu_++ % cus_));
    routed_.clear();
    for (const trace::WaveTrace& w : waves)
        for (const trace::Instr& in : w.instrs)
            if (in.kind == trace::RecKind::Mem && in.mask && (in.space == trace::Space::Global || in.space == trace::Space::Local))
                instruction(side, w, in);
    // The sets of the next few accesses are brought in while one is applied: their misses overlap.
    constexpr size_t kAhead = 4;
    auto sets = [this](const Routed& r) {
        slices_[r.home]->prefetch(r.a.line_no);
        if (r.copy != kNoCopy) slices_[r.copy]->prefetch(r.a.line_no);
        if (r.dropped != kNoCopy) slices_[r.dropped]->prefetch(r.a.line_no);
    };
    const size_t n = routed_.size();
    for (size_t i = 0; i < std::min(kAhead, n); ++i) sets(routed_[i]);
    for (size_t i = 0; i < n; ++i) {
        if (i + kAhead < n) sets(routed_[i + kAhead]);
        apply(routed_[i]);
    }
}

std::vector<uint32_t> L2Warmer::copies(const L2Partitions& sides, uint32_t channels) {
    std::vector<uint32_t> out(size_t(sides.count) * channels, kNoCopy);
    if (!sides.replicating()) return out;
    for (uint32_t s = 0; s < sides.count; ++s)
        for (uint32_t c = 0; c < channels; ++c)
            if (s != sides.side_of_channel(c)) out[size_t(s) * channels + c] = sides.mirror(c, s);
    return out;
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
void L2Warmer::instruction(uint32_t side, const trace::WaveTrace& w, const trace::Instr& in) {
    const uint64_t bytes = std::max<uint64_t>(in.bytes, 1), m = in.mask;
    const unsigned first = unsigned(__builtin_ctzll(m)), last = unsigned(63 - __builtin_clzll(m));
    const bool run = ((m >> first) & ((m >> first) + 1)) == 0;  // the active lanes are consecutive
    if (in.mode == trace::AddrMode::Affine && run && (in.stride == int64_t(bytes) || first == last)) {
        // The first lane's address (one lane alone may be any stride from the base).
        const uint64_t lo = in.base + uint64_t(int64_t(first) * in.stride);
        return range(side, lo, lo + uint64_t(last - first + 1) * bytes, in.op);
    }
    if (in.mode == trace::AddrMode::Affine && in.stride >= int64_t(bytes)) return affine(side, in);
    lines_.clear();
    w.for_each_lane(in, [&](unsigned, uint64_t addr) { add_bytes(addr, addr + bytes); });
    for (const Line& l : lines_) gather(side, line_access(l, in.op));
}

L2Warmer::Access L2Warmer::line_access(const Line& l, trace::Op op) const {
    if (op == trace::Op::Load) return {l.line_no, l1_blocks(l.sectors), 0, op};  // a load writes nothing whole
    uint32_t full = 0;
    for (uint32_t s = 0; s < per_line_; ++s)
        if (l.bytes[s] >= sector_.value()) full |= 1u << s;
    return {l.line_no, l.sectors, full, op};
}

// Lanes an affine stride apart, none overlapping the next: their addresses rise lane by lane. Lane i's
// line is the first lane's line plus (offset + i x stride) / line, where offset is the base's place in
// its line: the instruction's accesses are those of its shape (stride, lanes, bytes, offset, op) moved
// to the base's line. Most instructions of a skipped workgroup repeat a shape seen just before.
void L2Warmer::affine(uint32_t side, const trace::Instr& in) {
    const uint64_t first_line = line_.div(in.base), offset = in.base - first_line * line_.value();
    const uint64_t key = in.mask ^ (uint64_t(in.stride) * 0xC2B2AE3D27D4EB4Full) ^ (offset << 40) ^
                         (uint64_t(in.bytes) << 8) ^ uint64_t(in.op);
    Shape& sh = shapes_[((key * 0x9E3779B97F4A7C15ull) >> 58) % shapes_.size()];
    if (!(sh.stride == in.stride && sh.mask == in.mask && sh.bytes == in.bytes && sh.offset == offset && sh.op == in.op)) {
        sh.stride = in.stride, sh.mask = in.mask, sh.bytes = in.bytes, sh.offset = offset, sh.op = in.op;
        sh.lines.clear();  // (its capacity kept for the next shape here)
        shape_lines(in, offset, sh.lines);
    }
    for (const Access& a : sh.lines) gather(side, {first_line + a.line_no, a.sectors, a.full, a.op});
}

// The accesses of an affine instruction whose base were `base_addr`: its lanes' bytes gathered as any
// lanes' are (add_bytes; rising lanes find their line last, with no search), line by line.
void L2Warmer::shape_lines(const trace::Instr& in, uint64_t base_addr, std::vector<Access>& out) {
    const uint64_t bytes = std::max<uint64_t>(in.bytes, 1);
    lines_.clear();
    for (uint64_t m = in.mask; m; m &= m - 1) {
        const uint64_t a = base_addr + uint64_t(__builtin_ctzll(m)) * uint64_t(in.stride);
        add_bytes(a, a + bytes);
    }
    for (const Line& l : lines_) out.push_back(line_access(l, in.op));
}

// The accesses of the bytes [a, end) in one piece, line by line, as add_bytes would gather them (each
// line once, in order; a sector is written whole where the range covers it), with no list of lines:
// most instructions of a trace are such a range, and most of those lie in one line.
void L2Warmer::range(uint32_t side, uint64_t a, uint64_t end, trace::Op op) {
    while (a < end) {
        const uint64_t line_no = line_.div(a), base = line_no * line_.value();
        const uint64_t from = a - base, to = std::min(end - base, line_.value());  // within the line
        const uint64_t s0 = sector_.div(from), s1 = sector_.div(to - 1);
        const uint32_t sectors = uint32_t((uint64_t(2) << s1) - (uint64_t(1) << s0));  // s0 to s1
        uint32_t full = sectors;
        if (from != s0 * sector_.value()) full &= ~(1u << s0);       // begins inside its first sector
        if (to != (s1 + 1) * sector_.value()) full &= ~(1u << s1);   // ends inside its last
        gather(side, {line_no, op == trace::Op::Load ? l1_blocks(sectors) : sectors, full, op});
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

void L2Warmer::access(uint32_t cu, const Access& a) { apply(route(sides_.side_of_cu(cu), a)); }

// A load or store of a CU on another side than the home's goes through its side's copy; a store or an
// atomic drops the copies of the sides it did not come from (one found here, for its prefetch).
L2Warmer::Routed L2Warmer::route(uint32_t side, const Access& a) const {
    const uint32_t home = map_.channel_of(a.line_no * line_.value());
    const size_t channels = slices_.size();
    const uint32_t copy = a.op == trace::Op::Atomic ? kNoCopy : copy_of_[size_t(side) * channels + home];
    uint32_t dropped = kNoCopy;
    if (a.op != trace::Op::Load)
        for (uint32_t s = 0; s < sides_.count && dropped == kNoCopy; ++s)
            if (a.op == trace::Op::Atomic || s != side) dropped = copy_of_[size_t(s) * channels + home];
    return {a, side, home, copy, dropped};
}

void L2Warmer::apply(const Routed& r) {
    auto add = [this](L2Slice::WarmTraffic t) {
        read_sectors_ += t.read_sectors;
        written_sectors_ += t.written_sectors;
    };
    const Access& a = r.a;
    if (r.copy != kNoCopy) add(slices_[r.copy]->warm(a.line_no, a.sectors, a.full, a.op, true));
    add(slices_[r.home]->warm(a.line_no, a.sectors, a.full, a.op, false));
    if (sides_.replicating() && a.op != trace::Op::Load)
        link_->drop_copies(r.home, a.line_no, a.op == trace::Op::Atomic ? sides_.count : r.side);
}

}  // namespace dcusim
