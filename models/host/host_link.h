// The path between host and device memory: the link (PCIe, a payload rate
// per direction and a fixed cost per copy), the DMA (copy) engines, and the
// pageable path, which stages through pinned bounce buffers: the host's
// memcpy fills a buffer while the DMA drains the one before (h2d; d2h runs
// the same pipeline the other way). What a copy costs is known when it is
// issued, so it is computed, not simulated.
#pragma once

#include <cstdint>
#include <string>

#include "host_link_params.h"

namespace dcusim {

// The host memory a copy reads or writes (`device` for a device-to-device copy).
enum class HostMem : uint8_t { Pageable, Pinned, WriteCombined, Mapped, Device };
enum class CopyDir : uint8_t { H2D, D2H, D2D };

// Picoseconds for `bytes` at `mbps` (MB/s), rounded up: exact in integers.
inline uint64_t ps_at(uint64_t bytes, uint64_t mbps) {
    return uint64_t((static_cast<unsigned __int128>(bytes) * 1000000 + mbps - 1) / mbps);
}

class HostLink {
public:
    explicit HostLink(const HostLinkParams& p) : p_(p) {}
    // A copy's duration in ps, from the start of its DMA (or staging) to its last byte.
    uint64_t copy_ps(CopyDir dir, HostMem mem, uint64_t bytes) const;
    // Whether the host waits for the copy even when it is asynchronous (pageable memory: the host
    // itself stages it).
    static bool blocks_host(HostMem mem) { return mem == HostMem::Pageable; }
    // The copy engine a copy takes (0 .. copy_engines - 1).
    uint32_t engine(CopyDir dir) const { return dir == CopyDir::D2H && p_.copy_engines > 1 ? 1 : 0; }
    uint32_t engines() const { return p_.copy_engines; }
    const HostLinkParams& params() const { return p_; }

private:
    uint64_t link_mbps(CopyDir dir, HostMem mem) const;
    uint64_t staged_ps(CopyDir dir, uint64_t bytes) const;
    HostLinkParams p_;
};

}  // namespace dcusim
