#include "source.h"

#include <iterator>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "binary_format.h"
#include "binary_reader.h"
#include "text_reader.h"

namespace dcusim::trace {

std::unique_ptr<RecordSource> open_source(const std::string& path) {
    std::error_code ec;
    // A folder opens as a stream that fails on its first read.
    if (std::filesystem::is_directory(path, ec)) throw TraceError(path + ": is a folder, not a trace file");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw TraceError(path + ": cannot open trace file");
    char head[4096] = {};
    f.read(head, sizeof head);
    auto n = f.gcount();
    if (n >= 8 && std::memcmp(head, bin::kMagic, 8) == 0) return std::make_unique<BinaryReader>(path);
    // A file whose first block is not all text is a binary file with a bad magic.
    for (std::streamsize i = 0; i < n; ++i) {
        unsigned char c = static_cast<unsigned char>(head[i]);
        if (!std::isprint(c) && !std::isspace(c))
            throw TraceError(path + ": bad magic: neither a binary trace ('DCUTRACE') nor a text trace ('dcusim-trace 1')");
    }
    return TextReader::open(path);
}

TraceStream::TraceStream(std::unique_ptr<RecordSource> src) : src_(std::move(src)) {}

void TraceStream::fail(const std::string& what) const { throw TraceError(src_->where() + ": " + what); }

bool TraceStream::at_end() const {
    if (wave_size_ == 0) fail("trace has no 'wave_size' statement");
    if (in_kernel_) fail("kernel '" + kernel_.name + "' has no 'end'");
    return false;
}

void TraceStream::check_kernel(const KernelInfo& k) {
    if (in_kernel_) fail("kernel '" + k.name + "' starts before kernel '" + kernel_.name + "' has its 'end'");
    if (k.name.empty()) fail("kernel without a name");
    if (!is_token(k.name)) fail("kernel name must be printable ASCII without spaces or '#'");
    for (uint64_t d : {k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z})
        if (d == 0 || d > kMaxDim) fail("dimension '" + std::to_string(d) + "' must be 1 to 4294967295");
    const unsigned __int128 threads = (unsigned __int128)(k.block.x * k.block.y) * k.block.z;
    if (threads > kMaxBlockThreads)
        fail("block of " + std::to_string(uint64_t(threads)) + " threads (dcusim takes at most " + std::to_string(kMaxBlockThreads) + ")");
    if ((unsigned __int128)(k.grid.x * k.grid.y) * k.grid.z > (unsigned __int128)INT64_MAX) fail("grid too large");
    if (k.vgprs > kMaxRegisters) fail("'vgprs' too large (at most 4294967295)");
    if (k.sgprs > kMaxRegisters) fail("'sgprs' too large (at most 4294967295)");
    if (k.lds_bytes > kMaxLdsBytes) fail("'lds' " + std::to_string(k.lds_bytes) + " bytes too large (at most 4294967296)");
    if (k.scratch_bytes > kMaxScratchBytes)
        fail("'scratch' " + std::to_string(k.scratch_bytes) + " bytes per lane too large (at most 16777216)");
    if (k.stream > kMaxStream) fail("stream " + std::to_string(k.stream) + " too large (at most 65535)");
    if (k.carveout_pct > 100) fail("'carveout' " + std::to_string(k.carveout_pct) + " percent (0 to 100)");
}

void TraceStream::check_host(const Record& r) {
    const HostCall& h = r.host;
    static const char* names[] = {"copy", "sync", "host", "map"};
    const char* what = names[unsigned(r.kind) - unsigned(RecKind::Copy)];
    if (in_kernel_)
        fail(std::string("'") + what + "' inside kernel '" + kernel_.name + "': host statements come between 'end' and the next 'kernel'");
    if (h.stream > kMaxStream) fail("stream " + std::to_string(h.stream) + " too large (at most 65535)");
    if (r.kind == RecKind::Copy) {
        if (h.bytes == 0 || h.bytes > kMaxCopyBytes) fail("copy of " + std::to_string(h.bytes) + " bytes (1 to 1099511627776)");
        if ((h.dir == CopyDir::D2D) != (h.mem == HostMemKind::Device))
            fail(h.dir == CopyDir::D2D ? "a d2d copy names 'device' memory" : "an h2d or d2h copy names host memory, not 'device'");
    } else if (r.kind == RecKind::Host) {
        if (h.ns > kMaxHostNs) fail("host time " + std::to_string(h.ns) + " ns too large (at most 1099511627776)");
    } else if (r.kind == RecKind::Map) {
        if (h.bytes == 0 || h.bytes > kMaxCopyBytes) fail("map of " + std::to_string(h.bytes) + " bytes (1 to 1099511627776)");
        if (h.base >= kAddressEnd || h.bytes > kAddressEnd - h.base) fail("mapped range ends past the address space");
        if (maps_.size() >= 65536) fail("more than 65536 mapped ranges");
        const uint64_t end = h.base + h.bytes;
        auto next = maps_.lower_bound(h.base);
        const bool overlaps = (next != maps_.end() && next->first < end) || (next != maps_.begin() && std::prev(next)->second > h.base);
        if (overlaps) fail("mapped range overlaps another");
        maps_.emplace(h.base, end);
    }
}

void TraceStream::check_wave(const Record& r) {
    if (!in_kernel_) fail("'wave' outside a kernel");
    if (r.block >= kernel_.grid.count())
        fail("block " + std::to_string(r.block) + " outside the grid of " + std::to_string(kernel_.grid.count()) + " blocks");
    if (r.wave >= waves_per_block_)
        fail("wave " + std::to_string(r.wave) + " outside its block (" + std::to_string(waves_per_block_) + " waves of " +
             std::to_string(wave_size_) + " lanes)");
    if (any_block_ && r.block < block_)
        fail("block " + std::to_string(r.block) + " after block " + std::to_string(block_) +
             ": blocks must appear in non-decreasing order");
}

namespace {
// The lowest and highest active lane's address, in 128 bits.
void address_range(const MemAccess& m, __int128& lo, __int128& hi) {
    if (m.mode == AddrMode::Affine) {
        affine_lane_range(m.mask, m.base, m.stride, lo, hi);
    } else {
        lo = hi = m.addrs[0];
        for (uint64_t x : m.addrs) lo = std::min<__int128>(lo, x), hi = std::max<__int128>(hi, x);
    }
}

bool addresses_fit(const MemAccess& m) {
    return m.mode == AddrMode::Affine ? affine_lanes_fit(m.space, m.bytes, m.mask, m.base, m.stride)
                                      : listed_lanes_fit(m.space, m.bytes, m.addrs.data(), m.addrs.size());
}
}  // namespace

// Every active lane's bytes lie below kAddressEnd and, for LDS and local offsets, inside their window.
void TraceStream::check_addresses(const MemAccess& m) {
    if (addresses_fit(m)) return;
    __int128 lo, hi;
    address_range(m, lo, hi);
    const uint64_t end = address_end(m.space);
    const char* what = in_offset_window(m.space) ? "the 4 GiB window of LDS and local offsets" : "the 64-bit address space less its top 4 GiB";
    const uint64_t bad = lo < 0 ? m.base : uint64_t(hi);
    fail(std::string(space_name(m.space)) + " access of " + std::to_string(m.bytes) + " bytes at " + std::to_string(bad) +
         (lo < 0 ? " (a lane below 0)" : "") + " leaves " + what + " (" + std::to_string(end) + " bytes)");
}

// check_mem's rules without their messages (check_mem gives them); resolves an `all` mask as it does.
bool TraceStream::check_mem_fast(MemAccess& m) {
    if (m.mask_all) m.mask = wave_full_mask_;
    else if (m.mask == 0 || (m.mask & ~wave_full_mask_)) return false;
    if (m.mode == AddrMode::List && m.addrs.size() != popcount64(m.mask)) return false;
    return addresses_fit(m);
}

void TraceStream::check_mem(MemAccess& m) {
    if (!in_wave_) fail("memory instruction before any 'wave' statement of its kernel");
    if (check_mem_fast(m)) return;
    if (m.mask_all) {
        m.mask = wave_full_mask_;
    } else {
        if (m.mask == 0) fail("empty lane mask");
        if (m.mask & ~wave_full_mask_)
            fail("lane mask has lanes that do not exist in wave " + std::to_string(wave_) + " of a " +
                 std::to_string(kernel_.block.count()) + "-thread block (wave size " + std::to_string(wave_size_) + ")");
    }
    if (m.mode == AddrMode::List && m.addrs.size() != popcount64(m.mask))
        fail("list has " + std::to_string(m.addrs.size()) + " addresses for " + std::to_string(popcount64(m.mask)) +
             " active lanes");
    check_addresses(m);
}

void TraceStream::check(Record& r) {
    if (wave_size_ == 0 && r.kind != RecKind::WaveSize) fail("'wave_size 32|64' must come before anything else");
    switch (r.kind) {
        case RecKind::WaveSize:
            if (wave_size_ != 0) fail("'wave_size' given twice");
            if (r.wave_size != 32 && r.wave_size != 64) fail("wave_size must be 32 or 64, not " + std::to_string(r.wave_size));
            wave_size_ = uint32_t(r.wave_size);
            return;
        case RecKind::Kernel:
            check_kernel(r.kernel);
            kernel_ = r.kernel;
            in_kernel_ = true;
            in_wave_ = false;
            any_block_ = false;
            atomic_pcs_.clear();
            waves_per_block_ = (kernel_.block.count() + wave_size_ - 1) / wave_size_;
            return;
        case RecKind::Wave:
            check_wave(r);
            any_block_ = true;
            in_wave_ = true;
            block_ = r.block;
            wave_ = r.wave;
            wave_full_mask_ = full_lane_mask(kernel_.block.count(), wave_, wave_size_);
            return;
        case RecKind::Mem: return check_mem(r.mem);
        case RecKind::Compute:
            if (r.count > 0xffffffffull) fail("compute count " + std::to_string(r.count) + " too large (at most 4294967295)");
            if (r.long_count > r.count)
                fail("compute: " + std::to_string(r.long_count) + " long-latency instructions of " + std::to_string(r.count));
            if (r.mid_count > r.count - r.long_count)
                fail("compute: " + std::to_string(r.mid_count) + " middle-latency instructions and " +
                     std::to_string(r.long_count) + " long of " + std::to_string(r.count));
            if (r.lds_count > r.count - r.long_count - r.mid_count)
                fail("compute: " + std::to_string(r.lds_count) + " empty LDS instructions, " + std::to_string(r.long_count) +
                     " long and " + std::to_string(r.mid_count) + " middle of " + std::to_string(r.count));
            [[fallthrough]];
        case RecKind::Barrier:
        case RecKind::Wait:
            if (!in_wave_) fail("instruction before any 'wave' statement of its kernel");
            return;
        case RecKind::PcInfo:
            if (!in_kernel_ || any_block_) fail("'pc' declarations come after 'kernel' and before its first 'wave'");
            if ((r.pc_flags & PcHasLine) && !is_token(r.pc_line))
                fail("pc source line must be printable ASCII without spaces or '#'");
            // A PC declared again may add attributes, not give its atomic another kind.
            if (const AtomicKind k = atomic_kind_of(r.pc_flags); k != AtomicKind::Unknown) {
                auto [it, added] = atomic_pcs_.emplace(r.pc, k);
                if (!added && it->second != k) fail("pc " + hex_text(r.pc) + " declared both atomic int and atomic float");
            }
            return;
        case RecKind::End:
            if (!in_kernel_) fail("'end' outside a kernel");
            in_kernel_ = false;
            in_wave_ = false;
            return;
        case RecKind::Copy:
        case RecKind::Sync:
        case RecKind::Host:
        case RecKind::Map: return check_host(r);
    }
}

}  // namespace dcusim::trace
