// Binary trace format, version 1 (docs/trace-format.md):
//   file header: "DCUTRACE" | u32 version | u32 reserved
//   data chunk:  "CHNK" | u32 raw bytes | u32 compressed bytes | u32 records | u64 FNV-1a of compressed bytes
//                then one zstd frame (with its own content checksum) holding whole records
//   end chunk:   "TEND" | u32 0 | u32 0 | u32 data chunks | u64 total records
// All integers little-endian. A file without its end chunk is truncated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dcusim::trace::bin {

constexpr char kMagic[8] = {'D', 'C', 'U', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kChunkTag = 0x4b4e4843;  // "CHNK"
constexpr uint32_t kEndTag = 0x444e4554;    // "TEND"
constexpr size_t kHeaderBytes = 16;
constexpr size_t kChunkHeaderBytes = 24;
constexpr size_t kChunkRawTarget = 1 << 20;     // records are packed until a chunk holds ~1 MiB
constexpr uint32_t kChunkRawLimit = 64u << 20;  // a reader refuses larger chunks (corruption guard)

// Record tags; a memory instruction's tag has the top bit set and carries its
// op, space and log2(bytes): 1 | op:2 | space:2 | log2 size:3.
enum Tag : uint8_t {
    TWaveSize = 0, TKernel = 1, TWave = 2, TBarrier = 3, TWait = 4, TCompute = 5, TEnd = 6, TPcInfo = 7,
    TComputeLong = 8,  // compute with long-latency instructions among them: count, then how many
    TComputeMid = 9,   // compute with middle-latency ones among them: count, long-latency count, middle count
    // Host statements: copy (flags: dir:2 | host memory:3 | async:1 | has stream:1, then bytes [, stream]),
    // sync (has stream [, stream]), host (ns), map (base, bytes).
    TCopy = 10, TSync = 11, THost = 12, TMap = 13,
    TComputeLds = 14,  // compute with LDS instructions issued with no lane on: count, long, middle, LDS count
    TComputeStall = 15,  // compute with the cycles they hold the wave: count, long, middle, LDS count, stall cycles
};
// A compute record's tag says how many of its fields follow, in this order: count, long, middle, LDS,
// stall. Tag i of this ladder: the first i + 1 of them.
constexpr uint8_t kComputeTags[] = {TCompute, TComputeLong, TComputeMid, TComputeLds, TComputeStall};
constexpr size_t kComputeFields = sizeof(kComputeTags);
// A wait's flags byte: bit 0, a PC follows; bit 1, then how many memory operations it keeps in flight.
enum WaitFlags : uint8_t {
    WaitHasPc = 1, WaitHasKeep = 2,
};
constexpr uint8_t kMemBit = 0x80;
// Address encodings of a memory instruction (bits 1-2 of its flags byte; bit 0: mask is `all`).
enum AddrEnc : uint8_t { EncUniform = 0, EncAffine = 1, EncList = 2 };

uint64_t fnv1a64(const void* data, size_t n);

}  // namespace dcusim::trace::bin
