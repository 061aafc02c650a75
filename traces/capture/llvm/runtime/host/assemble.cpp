#include "assemble.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "../dcucc_abi.h"
#include "error.h"
#include "order.h"
#include "traces/capture/nvidia/timeline.h"

namespace dcucc::host {

using dcusim::trace::MemAccess;
using dcusim::trace::RecKind;
using dcusim::trace::Record;

namespace {

// Where one device record sits, and which wave wrote it.
struct Entry {
    uint64_t block;
    uint64_t offset;
    uint32_t wave;
};

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

bool affine(const dcucc_record& h) { return (h.info & DCUCC_INFO_AFFINE) != 0; }
uint64_t bytes_of(const dcucc_record& h) { return uint64_t(1) << DCUCC_INFO_LOG2B(h.info); }

// The header at `p`, of which `avail` bytes are in the buffer: 40 for every
// kind, 56 for memory records (base and stride follow the counts).
dcucc_record header_at(const uint8_t* p, uint64_t avail) {
    dcucc_record h{};
    std::memcpy(&h, p, std::min<uint64_t>(DCUCC_REC_SMALL, avail));
    if (DCUCC_INFO_KIND(h.info) == DCUCC_MEM) std::memcpy(&h, p, std::min<uint64_t>(DCUCC_REC_MEM, avail));
    return h;
}

uint64_t record_size(const dcucc_record& h) {
    if (DCUCC_INFO_KIND(h.info) != DCUCC_MEM) return DCUCC_REC_SMALL;
    return affine(h) ? DCUCC_REC_MEM : DCUCC_REC_MEM + 8ull * dcusim::trace::popcount64(h.mask);
}

// Whether lanes 0 .. the highest active one, at base + lane x stride, leave
// the 64-bit space: the trace readers reject such an affine record (they
// check every lane up to the highest), though the active lanes' addresses are
// right. It happens when the lowest active lane's address is smaller than
// its lane number times the stride (an LDS offset near 0).
bool affine_wraps(const dcucc_record& h) {
    const uint64_t hi_lane = 63 - uint64_t(__builtin_clzll(h.mask));
    const uint64_t mag = h.stride < 0 ? uint64_t(0) - uint64_t(h.stride) : uint64_t(h.stride);
    const unsigned __int128 span = (unsigned __int128)hi_lane * mag;
    return h.stride >= 0 ? (unsigned __int128)h.base + span + bytes_of(h) - 1 > ~0ull : span > h.base;
}

uint64_t lane_addr(const dcucc_record& h, unsigned lane) {
    return h.base + uint64_t(int64_t(lane)) * uint64_t(h.stride);
}

class Decoder {
public:
    Decoder(const uint8_t* buf, uint64_t used, const dcusim::trace::KernelInfo& k, uint32_t wave_size)
        : buf_(buf),
          used_(used),
          k_(k),
          ws_(wave_size),
          threads_(k.block.count()),
          waves_per_block_((threads_ + wave_size - 1) / wave_size) {}

    // Every record checked, in buffer order; `ro` collects each recorded PC and whether it is read-only.
    std::vector<Entry> run(std::map<uint32_t, bool>& ro) {
        std::vector<Entry> out;
        uint64_t off = 0;
        while (off < used_) {
            off_ = off;
            if (used_ - off < DCUCC_REC_SMALL)
                bad("cut short: " + std::to_string(used_ - off) + " bytes left of a record of at least " +
                    std::to_string(DCUCC_REC_SMALL));
            const dcucc_record h = header_at(buf_ + off, used_ - off);
            const uint32_t kind = DCUCC_INFO_KIND(h.info);
            const uint64_t size = record_size(h);
            if (used_ - off < size)
                bad("cut short: " + std::to_string(used_ - off) + " bytes left of a " + std::to_string(size) +
                    "-byte record");
            check(h);
            if (kind == DCUCC_MEM || kind == DCUCC_BARRIER) {
                bool& r = ro[h.pc];
                r = r || (kind == DCUCC_MEM && (h.info & DCUCC_INFO_READONLY));
            }
            out.push_back(Entry{h.block, off, h.wave});
            off += size;
        }
        return out;
    }

private:
    [[noreturn]] void bad(const std::string& what) const {
        throw CaptureError("record at byte " + std::to_string(off_) + " of " + std::to_string(used_) + ": " + what);
    }

    void check(const dcucc_record& h) const {
        if (h.block >= k_.grid.count())
            bad("block " + std::to_string(h.block) + " outside the grid of " + std::to_string(k_.grid.count()) +
                " blocks");
        if (h.wave >= waves_per_block_)
            bad("wave " + std::to_string(h.wave) + " outside its block of " + std::to_string(threads_) + " threads");
        const uint64_t full = dcusim::trace::full_lane_mask(threads_, h.wave, ws_);
        if (h.mask == 0 || (h.mask & ~full))
            bad("lane mask " + hex(h.mask) + " is empty or names lanes missing from wave " + std::to_string(h.wave) +
                " (its lanes: " + hex(full) + ")");
        if (h.long_count > h.compute || h.mid_count > h.compute - h.long_count)
            bad(std::to_string(h.long_count) + " long-latency and " + std::to_string(h.mid_count) +
                " middle-latency instructions of " + std::to_string(h.compute));
        if (DCUCC_INFO_KIND(h.info) == DCUCC_MEM) check_mem(h);
    }

    void check_mem(const dcucc_record& h) const {
        if (DCUCC_INFO_SPACE(h.info) > DCUCC_LOCAL)
            bad("memory space " + std::to_string(DCUCC_INFO_SPACE(h.info)) + " (0-3)");
        if (DCUCC_INFO_OP(h.info) > DCUCC_ATOMIC) bad("operation " + std::to_string(DCUCC_INFO_OP(h.info)) + " (0-2)");
        if (DCUCC_INFO_LOG2B(h.info) > 4)
            bad("access of 2^" + std::to_string(DCUCC_INFO_LOG2B(h.info)) + " bytes per lane (at most 16)");
        const uint64_t last = ~0ull - (bytes_of(h) - 1);  // the highest address an access may start at
        if (affine(h)) {
            for (uint64_t m = h.mask; m; m &= m - 1)
                if (lane_addr(h, unsigned(__builtin_ctzll(m))) > last) bad("an address leaves the 64-bit space");
            return;
        }
        const uint8_t* a = buf_ + off_ + DCUCC_REC_MEM;
        for (unsigned i = 0, n = dcusim::trace::popcount64(h.mask); i < n; ++i) {
            uint64_t v;
            std::memcpy(&v, a + 8 * i, 8);
            if (v > last) bad("address " + hex(v) + " leaves the 64-bit space");
        }
    }

    const uint8_t* buf_;
    uint64_t used_;
    const dcusim::trace::KernelInfo& k_;
    uint32_t ws_;
    uint64_t threads_, waves_per_block_;
    uint64_t off_ = 0;
};

// The memory record of device record `h` at `p`, into `r` (reused between records).
void mem_record(const dcucc_record& h, const uint8_t* p, uint64_t full, Record& r) {
    r.kind = RecKind::Mem;
    MemAccess& m = r.mem;
    m.op = dcusim::trace::Op(DCUCC_INFO_OP(h.info));
    m.space = dcusim::trace::Space(DCUCC_INFO_SPACE(h.info));
    m.bytes = uint8_t(bytes_of(h));
    m.pc = h.pc;
    m.mask = h.mask;
    m.mask_all = h.mask == full;
    m.addrs.clear();
    if (affine(h) && !affine_wraps(h)) {
        m.mode = dcusim::trace::AddrMode::Affine;
        m.base = h.base;
        m.stride = h.stride;
        return;
    }
    m.mode = dcusim::trace::AddrMode::List;
    m.base = 0;
    m.stride = 0;
    unsigned i = 0;
    for (uint64_t lanes = h.mask; lanes; lanes &= lanes - 1, ++i) {
        uint64_t a;
        if (affine(h))
            a = lane_addr(h, unsigned(__builtin_ctzll(lanes)));
        else
            std::memcpy(&a, p + DCUCC_REC_MEM + 8 * i, 8);
        m.addrs.push_back(a);
    }
}

// The walk's view of device record `h` at `p`.
WaveItem wave_item(const dcucc_record& h, const uint8_t* p) {
    WaveItem w;
    w.pc = h.pc;
    switch (DCUCC_INFO_KIND(h.info)) {
        case DCUCC_MEM: {
            w.kind = WaveItem::Mem;
            w.bytes = uint8_t(bytes_of(h));
            w.lane = __builtin_ctzll(h.mask);
            if (affine(h))
                w.addr = lane_addr(h, unsigned(w.lane));
            else
                std::memcpy(&w.addr, p + DCUCC_REC_MEM, 8);  // lanes are listed from the lowest
            break;
        }
        case DCUCC_BARRIER: w.kind = WaveItem::Barrier; break;
        case DCUCC_WAIT: w.kind = WaveItem::Wait; break;
        default: w.kind = WaveItem::Other;
    }
    return w;
}

void write_declarations(const std::map<uint32_t, bool>& ro, const SiteMap* sites, dcusim::trace::RecordSink& out) {
    Record d;
    d.kind = RecKind::PcInfo;
    for (const auto& [pc, readonly] : ro) {
        const Site* s = nullptr;
        if (sites)
            if (auto it = sites->find(pc); it != sites->end()) s = &it->second;
        d.pc = pc;
        const uint32_t f = s ? s->flags : 0;
        d.pc_flags = uint8_t((readonly || (f & kSiteReadOnly) ? dcusim::trace::PcReadOnly : 0) |
                             (s && !s->line.empty() ? dcusim::trace::PcHasLine : 0) |
                             (f & kSiteAtomicFloat ? dcusim::trace::PcAtomicFloat : f & kSiteAtomicInt ? dcusim::trace::PcAtomicInt : 0));
        d.pc_line = s ? s->line : std::string();
        if (d.pc_flags) out.write(d);
    }
}

}  // namespace

namespace {

// Writes one wave's records, entries [first, last) of `entries`, in the order
// `order` gives (null: buffer order). A slot keeps its own compute count (the
// IR's instructions before it); a memory record may come from another slot of
// its stretch.
struct WaveWriter {
    const uint8_t* buf;
    uint64_t used;
    const MachineCode* mc;
    const SassOrder* order;
    dcusim::trace::RecordSink& out;
    AssembleStats& st;
    std::vector<WaveItem> items;
    std::vector<size_t> perm;
    std::vector<int> at;

    void write(const std::vector<Entry>& entries, size_t first, size_t last, uint64_t full,
               dcutrace::WarpTimeline* tl, Record& r) {
        const size_t n = last - first;
        perm.resize(n);
        for (size_t k = 0; k < n; ++k) perm[k] = k;
        if (order) {
            items.clear();
            for (size_t k = first; k < last; ++k) {
                const uint8_t* p = buf + entries[k].offset;
                items.push_back(wave_item(header_at(p, used - entries[k].offset), p));
            }
            order->order(items, perm, at);
        }
        for (size_t k = 0; k < n; ++k) {
            const uint8_t* slot = buf + entries[first + k].offset;
            const uint8_t* p = buf + entries[first + perm[k]].offset;
            const dcucc_record hs = header_at(slot, used - entries[first + k].offset);
            const dcucc_record h = header_at(p, used - entries[first + perm[k]].offset);
            const uint32_t kind = DCUCC_INFO_KIND(h.info);
            // With machine code, the IR's counts and waits give way to the SASS walk's.
            if (tl && (kind == DCUCC_COMPUTE || kind == DCUCC_WAIT)) continue;
            if (hs.compute && !tl) {
                r.kind = RecKind::Compute;
                r.count = hs.compute;
                r.long_count = hs.long_count;
                r.mid_count = hs.mid_count;
                out.write(r);
                st.compute += hs.compute;
            }
            const int idx = !tl ? -1 : order ? at[perm[k]] : mc->index(h.pc);
            if (tl) tl->advance_to(idx);
            switch (kind) {
                case DCUCC_COMPUTE:
                    continue;
                case DCUCC_WAIT:
                    r.kind = RecKind::Wait;
                    r.has_pc = false;
                    ++st.waits;
                    break;
                case DCUCC_BARRIER:
                    r.kind = RecKind::Barrier;
                    r.pc = h.pc;
                    ++st.barriers;
                    break;
                default:
                    mem_record(h, p, full, r);
                    ++st.mem;
            }
            out.write(r);
            if (tl) tl->issued(idx);
        }
    }
};

}  // namespace

AssembleStats assemble_launch(const uint8_t* buf, uint64_t used, const dcusim::trace::KernelInfo& kernel,
                              uint32_t wave_size, const SiteMap* sites, dcusim::trace::RecordSink& out,
                              const MachineCode* mc, const SassOrder* order) {
    if (wave_size != 32 && wave_size != 64)
        throw CaptureError("wave size " + std::to_string(wave_size) + " (32 or 64)");
    std::map<uint32_t, bool> ro;
    std::vector<Entry> entries = Decoder(buf, used, kernel, wave_size).run(ro);
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.block != b.block ? a.block < b.block : a.wave < b.wave;
    });

    AssembleStats st;
    st.records = entries.size();
    Record r;
    r.kind = RecKind::Kernel;
    r.kernel = kernel;
    out.write(r);
    write_declarations(ro, sites, out);
    const uint64_t threads = kernel.block.count();
    dcutrace::TimelineCounts counts;
    WaveWriter ww{buf, used, mc, order, out, st, {}, {}, {}};
    for (size_t i = 0, j; i < entries.size(); i = j) {
        const Entry& e = entries[i];
        for (j = i + 1; j < entries.size() && entries[j].block == e.block && entries[j].wave == e.wave;) ++j;
        r.kind = RecKind::Wave;
        r.block = e.block;
        r.wave = e.wave;
        out.write(r);
        ++st.waves;
        // With machine code, the wave's compute and waits come from its SASS walk.
        std::unique_ptr<dcutrace::WarpTimeline> tl;
        if (mc) tl = std::make_unique<dcutrace::WarpTimeline>(mc->f, out, counts);
        ww.write(entries, i, j, dcusim::trace::full_lane_mask(threads, e.wave, wave_size), tl.get(), r);
        if (tl) tl->finish();
    }
    st.compute += counts.compute;
    st.waits += counts.waits;
    r.kind = RecKind::End;
    out.write(r);
    return st;
}

}  // namespace dcucc::host
