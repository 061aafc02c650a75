// A stream of trace records, from a text or a binary file, checked against the
// grammar's ordering rules with `all` masks resolved (TraceStream).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "instr.h"
#include "record.h"

namespace dcusim::trace {

// Raw records in file order; no cross-record checks.
class RecordSource {
public:
    virtual ~RecordSource() = default;
    // The next record into `r` (false at the end of the file). Only the fields of r.kind are set:
    // the others may hold an earlier record's (Record::operator== compares a kind's own).
    virtual bool next(Record& r) = 0;
    virtual std::string where() const = 0;  // "FILE:LINE" or "FILE: chunk N"
    // The wave instructions (memory, compute, barrier and wait records) that come next, decoded straight
    // into `instrs` (and a list's addresses into `pool`, each instruction's base its index there), each
    // one checked as TraceStream checks it in a wave whose lanes are `full_mask` (an `all` mask becomes
    // it). Stops before the first record of another kind or one that TraceStream would refuse (next()
    // then reads it, and TraceStream names what is wrong), or wherever the source prefers; returns how
    // many it took. None by default: every record through next(). After a TraceError the source and the
    // lists are not to be used again (a record may be half decoded).
    virtual size_t next_instrs(std::vector<Instr>& /*instrs*/, std::vector<uint64_t>& /*pool*/, uint64_t /*full_mask*/) {
        return 0;
    }
};

// Opens FILE as binary (by its magic) or text. Throws TraceError.
std::unique_ptr<RecordSource> open_source(const std::string& path);

// Ranges of a trace's values (docs/trace-format.md, "Rules checked on
// reading"). Both readers keep each value as encoded, in 64 bits, and only
// TraceStream applies these, so text and binary accept and refuse alike.
// Largest block accepted (real GPUs stop at 1024 threads): bounds what one
// workgroup may cost to hold in memory.
constexpr uint64_t kMaxBlockThreads = 65536;
constexpr uint64_t kMaxDim = 0xffffffffull;        // each grid and block dimension
constexpr uint64_t kMaxRegisters = 0xffffffffull;  // VGPRs per lane, SGPRs: a preset's limits are 32-bit
// LDS a workgroup asks, scratch a lane asks: far above any GPU (228 KiB, 512 KiB),
// low enough that no sum or rounding of them in the model wraps.
constexpr uint64_t kMaxLdsBytes = 1ull << 32;
constexpr uint64_t kMaxScratchBytes = 1ull << 24;
constexpr uint64_t kMaxWindowOffset = 1ull << 32;  // LDS and local offsets end within this
// No lane may touch the top 4 GiB of the address space: the model walks lines
// and sectors of up to 2^31 bytes (a preset's sizes are 32-bit), and none of
// them may wrap past 2^64.
constexpr uint64_t kAddressEnd = ~0ull - 0xffffffffull;  // 2^64 - 2^32: the first byte refused

// A compute record's counts: at most 2^32 - 1 instructions, of which the long, middle and LDS ones are parts.
inline bool compute_counts_ok(uint64_t count, uint64_t long_count, uint64_t mid_count, uint64_t lds_count) {
    return count <= 0xffffffffull && long_count <= count && mid_count <= count - long_count &&
           lds_count <= count - long_count - mid_count;
}

// LDS and local offsets end within a window of their own, other addresses below kAddressEnd: offsets
// are not held to the kernel's declared sizes, which captured traces exceed (NVIDIA's reserved LDS, a
// local stack near 16 MiB), but to a window no offset arithmetic in the model can wrap.
inline bool in_offset_window(Space s) { return s == Space::Lds || s == Space::Local; }
inline uint64_t address_end(Space s) { return in_offset_window(s) ? kMaxWindowOffset : kAddressEnd; }
// The lowest and highest active lane's address of an affine access, in 128 bits: no stride (INT64_MIN
// included) and no lane overflows. `mask` is not empty.
inline void affine_lane_range(uint64_t mask, uint64_t base, int64_t stride, __int128& lo, __int128& hi) {
    const __int128 a = (__int128)base + (__int128)__builtin_ctzll(mask) * stride;
    const __int128 b = (__int128)base + (__int128)(63 - __builtin_clzll(mask)) * stride;
    lo = std::min(a, b), hi = std::max(a, b);
}
// Whether every active lane's bytes lie below address_end(s).
inline bool affine_lanes_fit(Space s, uint8_t bytes, uint64_t mask, uint64_t base, int64_t stride) {
    // Nearly every access: a base below 2^62 and a stride within 2^32 either way keep every lane within
    // 64 bits (63 lanes x 2^32 < 2^38), so the same test in 64-bit arithmetic.
    if (base < (1ull << 62) && uint64_t(stride) + (1ull << 32) <= (1ull << 33)) {
        const int64_t a = int64_t(base) + int64_t(__builtin_ctzll(mask)) * stride;
        const int64_t b = int64_t(base) + int64_t(63 - __builtin_clzll(mask)) * stride;
        return std::min(a, b) >= 0 && uint64_t(std::max(a, b)) + bytes <= address_end(s);
    }
    __int128 lo, hi;
    affine_lane_range(mask, base, stride, lo, hi);
    return lo >= 0 && hi + bytes <= (__int128)address_end(s);
}
inline bool listed_lanes_fit(Space s, uint8_t bytes, const uint64_t* addrs, size_t n) {
    uint64_t hi = 0;
    for (size_t i = 0; i < n; ++i) hi = std::max(hi, addrs[i]);
    return (__int128)hi + bytes <= (__int128)address_end(s);
}

// Validated stream: wave_size first, kernel ... end nesting, waves inside a
// kernel with blocks in non-decreasing order, masks within the wave.
class TraceStream {
public:
    explicit TraceStream(std::unique_ptr<RecordSource> src);
    explicit TraceStream(const std::string& path) : TraceStream(open_source(path)) {}

    // Every record of a trace passes here: the usual instructions checked inline, the rest (and
    // every refusal) out of line.
    bool next(Record& r) {
        if (!src_->next(r)) return at_end();
        if (!in_wave_ || !check_instr(r)) check(r);
        return true;
    }
    // The wave instructions that come next, checked, straight into a wave's lists (RecordSource::next_instrs);
    // none outside a wave. next() reads what follows them.
    size_t next_instrs(std::vector<Instr>& instrs, std::vector<uint64_t>& pool) {
        return in_wave_ ? src_->next_instrs(instrs, pool, wave_full_mask_) : 0;
    }
    uint32_t wave_size() const { return wave_size_; }
    const KernelInfo& kernel() const { return kernel_; }
    std::string where() const { return src_->where(); }
    [[noreturn]] void fail(const std::string& what) const;

private:
    [[gnu::cold]] bool at_end() const;
    // A memory, compute, barrier or wait record inside a wave: checked here when it passes every rule
    // (false: check() decides, and names what fails).
    bool check_instr(Record& r) {
        switch (r.kind) {
            case RecKind::Mem: return check_mem_fast(r.mem);
            case RecKind::Compute: return compute_ok(r);
            case RecKind::Barrier:
            case RecKind::Wait: return true;
            default: return false;
        }
    }
    // The compute counts' ranges (check() names the one that fails).
    static bool compute_ok(const Record& r) { return compute_counts_ok(r.count, r.long_count, r.mid_count, r.lds_count); }
    bool check_mem_fast(MemAccess& m);
    void check(Record& r);
    void check_kernel(const KernelInfo& k);
    void check_wave(const Record& r);
    void check_mem(MemAccess& m);
    void check_addresses(const MemAccess& m);
    void check_host(const Record& r);  // copy, sync, host, map

    std::unique_ptr<RecordSource> src_;
    uint32_t wave_size_ = 0;
    bool in_kernel_ = false;
    bool in_wave_ = false;
    bool any_block_ = false;
    KernelInfo kernel_;
    uint64_t block_ = 0;
    uint64_t wave_ = 0;
    uint64_t waves_per_block_ = 0;
    uint64_t wave_full_mask_ = 0;
    std::map<uint64_t, uint64_t> maps_;  // mapped ranges: base -> end
    std::map<uint64_t, AtomicKind> atomic_pcs_;  // the kernel's PCs declared atomic int or float
};

}  // namespace dcusim::trace
