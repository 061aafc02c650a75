// Wave regrouping between capture and preset wave sizes.
//  32 -> 64: wave k takes lanes 0-31 from capture wave 2k and lanes 32-63 from
//            wave 2k+1; instructions pair up by (kind, PC, k-th dynamic instance).
//            An instruction with no partner issues alone, before the
//            other wave's next instruction that does have one. `compute` counts are
//            not paired: between two issued instructions the 64-lane wave issues
//            the larger of the two halves' counts.
//  64 -> 32: each instruction splits by lanes; a half with no active lane does
//            not issue it; barriers, waits and compute go to both halves.
#include <algorithm>
#include <map>
#include <tuple>

#include "wave_trace.h"

namespace dcusim::trace {

void WaveTrace::append(const Record& r) {
    if (r.kind != RecKind::Mem && r.kind != RecKind::Barrier && r.kind != RecKind::Wait && r.kind != RecKind::Compute) return;
    // Copied from a blank one and filled in place: a zeroed temporary copied in took a sixth of a
    // sampled run's time (the zeroing's string store, then a stall on reading it back).
    static const Instr blank{};
    instrs.push_back(blank);
    Instr& in = instrs.back();
    in.kind = r.kind;
    switch (r.kind) {
        case RecKind::Mem: {
            const MemAccess& m = r.mem;
            in.op = m.op;
            in.space = m.space;
            in.bytes = m.bytes;
            in.mode = m.mode;
            in.pc = m.pc;
            in.mask = m.mask;
            if (m.mode == AddrMode::Affine) {
                in.base = m.base;
                in.stride = m.stride;
            } else {
                in.base = pool.size();
                pool.insert(pool.end(), m.addrs.begin(), m.addrs.end());
            }
            break;
        }
        case RecKind::Barrier: in.pc = r.pc; break;
        case RecKind::Wait: in.pc = r.has_pc ? r.pc : 0, in.keep = r.keep; break;
        default:  // Compute
            in.count = r.count, in.long_count = r.long_count, in.mid_count = r.mid_count, in.lds_count = r.lds_count;
            in.stall = r.stall;
            break;
    }
}

namespace {

using Key = std::tuple<int, uint64_t, uint64_t>;  // kind, pc, dynamic instance

std::vector<Key> keys_of(const WaveTrace& w) {
    std::map<std::pair<int, uint64_t>, uint64_t> seen;
    std::vector<Key> k;
    k.reserve(w.instrs.size());
    for (const Instr& in : w.instrs) {
        if (in.kind == RecKind::Compute) { k.emplace_back(-1, 0, 0); continue; }
        uint64_t n = seen[{int(in.kind), in.pc}]++;
        k.emplace_back(int(in.kind), in.pc, n);
    }
    return k;
}

// Copies `in` from wave `src` into `dst`, keeping lanes [lo, lo+32) of a 64-lane
// source when split, or moving lanes up by `shift` when merging.
void copy_lanes(WaveTrace& dst, const WaveTrace& src, Instr in, uint64_t mask, int shift) {
    Instr out = in;
    if (in.kind == RecKind::Wait) out.keep = 0;  // a regrouped wave's operations are not the source's: its waits wait for all
    if (in.kind == RecKind::Mem) {
        if (in.mode == AddrMode::Affine) {
            // lane i of the source is lane i+shift of the destination
            out.base = in.base - uint64_t(int64_t(shift)) * uint64_t(in.stride);  // wrapping, as the lanes' addresses
        } else {
            out.base = dst.pool.size();
            src.for_each_lane(in, [&](unsigned lane, uint64_t a) {
                if (mask >> lane & 1) dst.pool.push_back(a);
            });
        }
        out.mask = shift >= 0 ? (in.mask & mask) << shift : (in.mask & mask) >> -shift;
    }
    dst.instrs.push_back(out);
}

bool same_access(const Instr& a, const Instr& b) {
    return a.op == b.op && a.space == b.space && a.bytes == b.bytes;
}

// Non-memory instructions not yet issued: how many, how many of them long- and middle-latency, and how
// many LDS instructions with no lane on, and the cycles they hold the wave where the trace gives them.
struct Pending {
    uint64_t n = 0, longs = 0, mids = 0, lds = 0, stall = 0;
    void add(const Instr& c) { n += c.count, longs += c.long_count, mids += c.mid_count, lds += c.lds_count, stall += c.stall; }
};

void push_compute(WaveTrace& w, Pending p) {
    if (p.n == 0) return;
    Instr c;
    c.kind = RecKind::Compute;
    c.count = p.n;
    c.long_count = p.longs;
    c.mid_count = p.mids;
    c.lds_count = p.lds;
    c.stall = p.stall;
    w.instrs.push_back(c);
}

WaveTrace merge_pair(const WaveTrace& a, const WaveTrace& b) {
    WaveTrace out;
    auto ka = keys_of(a), kb = keys_of(b);
    std::map<Key, size_t> pos_a, pos_b;
    for (size_t i = 0; i < ka.size(); ++i)
        if (std::get<0>(ka[i]) >= 0) pos_a[ka[i]] = i;
    for (size_t j = 0; j < kb.size(); ++j)
        if (std::get<0>(kb[j]) >= 0) pos_b[kb[j]] = j;
    auto later = [](const std::map<Key, size_t>& pos, const Key& k, size_t after) {
        auto p = pos.find(k);
        return p != pos.end() && p->second > after;
    };
    size_t i = 0, j = 0;
    Pending ca, cb;  // compute pending since the last issued instruction
    auto flush = [&] {  // both halves issue together: the longer pending stretch
        const uint64_t n = std::max(ca.n, cb.n), longs = std::max(ca.longs, cb.longs);
        const uint64_t mids = std::min(std::max(ca.mids, cb.mids), n - longs);
        // A 64-lane wave issues an LDS instruction with no lane on only where both halves had none.
        push_compute(out, {n, longs, mids, std::min({ca.lds, cb.lds, n - longs - mids}), std::max(ca.stall, cb.stall)});
        ca = cb = {};
    };
    const uint64_t lo = 0xffffffffull;
    while (i < a.instrs.size() || j < b.instrs.size()) {
        if (i < a.instrs.size() && a.instrs[i].kind == RecKind::Compute) { ca.add(a.instrs[i++]); continue; }
        if (j < b.instrs.size() && b.instrs[j].kind == RecKind::Compute) { cb.add(b.instrs[j++]); continue; }
        bool has_a = i < a.instrs.size(), has_b = j < b.instrs.size();
        if (has_a && has_b && ka[i] == kb[j] && same_access(a.instrs[i], b.instrs[j])) {
            flush();
            const Instr &x = a.instrs[i], &y = b.instrs[j];
            if (x.kind != RecKind::Mem) {
                out.instrs.push_back(x);
                if (x.kind == RecKind::Wait) out.instrs.back().keep = 0;  // see copy_lanes
            } else if (x.mode == AddrMode::Affine && y.mode == AddrMode::Affine && x.stride == y.stride &&
                       y.base == x.base + 32 * uint64_t(x.stride)) {
                Instr m = x;
                m.mask = x.mask | y.mask << 32;
                out.instrs.push_back(m);
            } else {
                Instr m = x;
                m.mode = AddrMode::List;
                m.mask = x.mask | y.mask << 32;
                m.base = out.pool.size();
                a.for_each_lane(x, [&](unsigned, uint64_t ad) { out.pool.push_back(ad); });
                b.for_each_lane(y, [&](unsigned, uint64_t ad) { out.pool.push_back(ad); });
                out.instrs.push_back(m);
            }
            ++i, ++j;
            continue;
        }
        // Issue first the instruction that has no partner ahead in the other
        // wave; when both have one (crossed order), the lower half goes first.
        bool take_a = has_a;
        if (has_a && has_b) take_a = !later(pos_b, ka[i], j) || later(pos_a, kb[j], i);
        if (take_a) {
            push_compute(out, ca);
            ca = {};
            copy_lanes(out, a, a.instrs[i++], lo, 0);
        } else {
            push_compute(out, cb);
            cb = {};
            copy_lanes(out, b, b.instrs[j++], lo, 32);
        }
    }
    flush();
    return out;
}

}  // namespace

std::vector<WaveTrace> regroup_waves(std::vector<WaveTrace> in, uint32_t from, uint32_t to, uint64_t threads) {
    if (from == to) return in;
    size_t n_out = size_t((threads + to - 1) / to);
    std::vector<WaveTrace> out(n_out);
    if (from == 32 && to == 64) {
        in.resize(std::max(in.size(), 2 * n_out));
        for (size_t k = 0; k < n_out; ++k) out[k] = merge_pair(in[2 * k], in[2 * k + 1]);
        return out;
    }
    // 64 -> 32
    for (size_t w = 0; w < in.size(); ++w) {
        for (int half = 0; half < 2; ++half) {
            size_t k = 2 * w + size_t(half);
            if (k >= n_out) break;
            uint64_t keep = half ? ~0ull << 32 : 0xffffffffull;
            for (const Instr& x : in[w].instrs) {
                if (x.kind == RecKind::Mem && !(x.mask & keep)) continue;
                copy_lanes(out[k], in[w], x, keep, half ? -32 : 0);
            }
        }
    }
    return out;
}

}  // namespace dcusim::trace
