#include "source.h"

#include <cctype>
#include <cstring>
#include <fstream>

#include "binary_format.h"
#include "binary_reader.h"
#include "text_reader.h"

namespace dcusim::trace {

std::unique_ptr<RecordSource> open_source(const std::string& path) {
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

bool TraceStream::next(Record& r) {
    if (!src_->next(r)) {
        if (wave_size_ == 0) fail("trace has no 'wave_size' statement");
        if (in_kernel_) fail("kernel '" + kernel_.name + "' has no 'end'");
        return false;
    }
    check(r);
    return true;
}

void TraceStream::check(Record& r) {
    if (wave_size_ == 0 && r.kind != RecKind::WaveSize) fail("'wave_size 32|64' must come before anything else");
    switch (r.kind) {
        case RecKind::WaveSize:
            if (wave_size_ != 0) fail("'wave_size' given twice");
            if (r.wave_size != 32 && r.wave_size != 64) fail("wave_size must be 32 or 64");
            wave_size_ = r.wave_size;
            return;
        case RecKind::Kernel:
            if (in_kernel_) fail("kernel '" + r.kernel.name + "' starts before kernel '" + kernel_.name + "' has its 'end'");
            if (r.kernel.name.empty()) fail("kernel without a name");
            if (r.kernel.block.count() > kMaxBlockThreads)
                fail("block of " + std::to_string(r.kernel.block.count()) + " threads (dcusim takes at most " +
                     std::to_string(kMaxBlockThreads) + ")");
            if (double(r.kernel.grid.x) * r.kernel.grid.y * r.kernel.grid.z > 9.2e18) fail("grid too large");
            kernel_ = r.kernel;
            in_kernel_ = true;
            in_wave_ = false;
            any_block_ = false;
            waves_per_block_ = (kernel_.block.count() + wave_size_ - 1) / wave_size_;
            return;
        case RecKind::Wave:
            if (!in_kernel_) fail("'wave' outside a kernel");
            if (r.block >= kernel_.grid.count())
                fail("block " + std::to_string(r.block) + " outside the grid of " + std::to_string(kernel_.grid.count()) + " blocks");
            if (r.wave >= waves_per_block_)
                fail("wave " + std::to_string(r.wave) + " outside its block (" + std::to_string(waves_per_block_) +
                     " waves of " + std::to_string(wave_size_) + " lanes)");
            if (any_block_ && r.block < block_)
                fail("block " + std::to_string(r.block) + " after block " + std::to_string(block_) +
                     ": blocks must appear in non-decreasing order");
            any_block_ = true;
            in_wave_ = true;
            block_ = r.block;
            wave_ = r.wave;
            wave_full_mask_ = full_lane_mask(kernel_.block.count(), wave_, wave_size_);
            return;
        case RecKind::Mem: {
            if (!in_wave_) fail("memory instruction before any 'wave' statement of its kernel");
            MemAccess& m = r.mem;
            if (m.mask_all) {
                m.mask = wave_full_mask_;
            } else {
                if (m.mask == 0) fail("empty lane mask");
                if (m.mask & ~wave_full_mask_)
                    fail("lane mask has lanes that do not exist in wave " + std::to_string(wave_) + " of a " +
                         std::to_string(kernel_.block.count()) + "-thread block (wave size " + std::to_string(wave_size_) + ")");
            }
            if (m.mode == AddrMode::Affine) {
                // Lane addresses must stay within 64 bits: check the extreme lanes.
                uint64_t hi_lane = 63 - uint64_t(__builtin_clzll(m.mask));
                unsigned __int128 span = (unsigned __int128)hi_lane * uint64_t(m.stride < 0 ? -m.stride : m.stride);
                bool wraps = m.stride >= 0 ? (unsigned __int128)m.base + span + m.bytes - 1 > ~0ull : span > m.base;
                if (wraps) fail("affine addresses of lanes up to " + std::to_string(hi_lane) + " leave the 64-bit address space");
            } else {
                for (uint64_t a : m.addrs)
                    if (a > ~0ull - (m.bytes - 1)) fail("address " + std::to_string(a) + " leaves the 64-bit address space");
            }
            if (m.mode == AddrMode::List && m.addrs.size() != popcount64(m.mask))
                fail("list has " + std::to_string(m.addrs.size()) + " addresses for " + std::to_string(popcount64(m.mask)) +
                     " active lanes");
            return;
        }
        case RecKind::Compute:
            if (r.count > 0xffffffffull) fail("compute count " + std::to_string(r.count) + " too large (at most 4294967295)");
            if (r.long_count > r.count)
                fail("compute: " + std::to_string(r.long_count) + " long-latency instructions of " + std::to_string(r.count));
            if (r.mid_count > r.count - r.long_count)
                fail("compute: " + std::to_string(r.mid_count) + " middle-latency instructions and " +
                     std::to_string(r.long_count) + " long of " + std::to_string(r.count));
            [[fallthrough]];
        case RecKind::Barrier:
        case RecKind::Wait:
            if (!in_wave_) fail("instruction before any 'wave' statement of its kernel");
            return;
        case RecKind::PcInfo:
            if (!in_kernel_ || any_block_) fail("'pc' declarations come after 'kernel' and before its first 'wave'");
            return;
        case RecKind::End:
            if (!in_kernel_) fail("'end' outside a kernel");
            in_kernel_ = false;
            in_wave_ = false;
            return;
    }
}

}  // namespace dcusim::trace
