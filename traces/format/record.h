// Trace records: the in-memory form shared by the text and binary formats.
// One record per statement of the text grammar (docs/trace-format.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dcusim::trace {

enum class Op : uint8_t { Load = 0, Store = 1, Atomic = 2 };
enum class Space : uint8_t { Global = 0, Lds = 1, Const = 2, Local = 3 };
enum class AddrMode : uint8_t { Affine = 0, List = 1 };

const char* op_name(Op op);
const char* space_name(Space s);

// 64-bit as read, so both readers hand TraceStream the value the file holds
// (it checks the ranges: each at most 2^32 - 1, the count within 64 bits).
struct Dim3 {
    uint64_t x = 1, y = 1, z = 1;
    uint64_t count() const { return x * y * z; }
    bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
};

// Kernel launch metadata. Optional fields keep whether they were given so a
// text -> binary -> text round trip reproduces the statement exactly.
struct KernelInfo {
    std::string name;
    Dim3 grid, block;
    uint64_t lds_bytes = 0;
    uint64_t vgprs = 0;
    uint64_t sgprs = 0;
    uint64_t scratch_bytes = 0;
    uint64_t stream = 0;  // the stream it is launched on (0: the default stream)
    // The kernel's preferred shared-memory carve-out, in percent of the largest (CUDA's
    // cudaFuncAttributePreferredSharedMemoryCarveout, HIP's hipFuncAttribute... of the same name):
    // where L1 and shared memory are one array, the share the program asked for. Absent: no preference.
    uint64_t carveout_pct = 0;
    uint8_t present = 0;  // bit mask of KernelInfo::Has*
    enum : uint8_t { HasLds = 1, HasVgprs = 2, HasSgprs = 4, HasScratch = 8, HasStream = 16, HasCarveout = 32 };
    static constexpr uint8_t kAllAttributes = 63;
    bool operator==(const KernelInfo& o) const;
};

// A wave-level memory instruction. Addresses: Affine gives lane i the address
// base + i*stride (i = lane index); List gives one address per active lane in
// increasing lane order.
struct MemAccess {
    Op op = Op::Load;
    Space space = Space::Global;
    uint8_t bytes = 4;          // per lane: 1, 2, 4, 8 or 16
    bool mask_all = false;      // written as `all` (mask holds the resolved lanes)
    uint64_t pc = 0;
    uint64_t mask = 0;          // active lanes, bit i = lane i
    AddrMode mode = AddrMode::Affine;
    uint64_t base = 0;
    int64_t stride = 0;
    std::vector<uint64_t> addrs;  // List mode: popcount(mask) entries

    // In unsigned (wrapping) arithmetic: defined for every stride; TraceStream
    // has checked that no active lane's address wraps.
    uint64_t lane_addr_affine(unsigned lane) const { return base + uint64_t(lane) * uint64_t(stride); }
    bool operator==(const MemAccess& o) const;
};

enum class RecKind : uint8_t { WaveSize, Kernel, Wave, Mem, Barrier, Wait, Compute, End, PcInfo, Copy, Sync, Host, Map };

// Host statements, between kernels (docs/trace-format.md, "Host statements"): a copy, a sync, the
// host's own time, and a range of global addresses that is mapped host memory.
enum class CopyDir : uint8_t { H2D = 0, D2H = 1, D2D = 2 };
enum class HostMemKind : uint8_t { Pageable = 0, Pinned = 1, WriteCombined = 2, Mapped = 3, Device = 4 };
inline bool is_host_statement(RecKind k) {
    return k == RecKind::Copy || k == RecKind::Sync || k == RecKind::Host || k == RecKind::Map;
}
const char* copy_dir_name(CopyDir d);
const char* host_mem_name(HostMemKind m);

struct HostCall {
    CopyDir dir = CopyDir::H2D;              // Copy
    HostMemKind mem = HostMemKind::Pinned;   // Copy
    bool async = false;                      // Copy
    bool has_stream = false;                 // Copy, Sync (a sync without one waits for the device)
    uint64_t stream = 0;                     // Copy, Sync
    uint64_t bytes = 0;                      // Copy, Map
    uint64_t base = 0;                       // Map
    uint64_t ns = 0;                         // Host
    bool operator==(const HostCall& o) const;
};
constexpr uint64_t kMaxStream = 65535;           // streams a program names: far past any program's
constexpr uint64_t kMaxCopyBytes = 1ull << 40;   // one copy or map: 1 TiB, past any GPU's memory
constexpr uint64_t kMaxHostNs = 1ull << 40;      // host time between two calls: 18 minutes

// Attributes of the instruction at a PC, declared once per kernel (`pc` statement). An atomic's
// operands are integers or floating point (at most one of the two bits): the L2's atomic unit takes
// longer for floating point (models/l2/atomic_unit.h).
enum PcFlags : uint8_t { PcReadOnly = 1, PcHasLine = 2, PcAtomicInt = 4, PcAtomicFloat = 8 };
constexpr uint8_t kPcFlagsKnown = PcReadOnly | PcHasLine | PcAtomicInt | PcAtomicFloat;

// What an atomic instruction computes on, as far as the trace says (Unknown: traces before the `pc`
// attribute, or a capture that could not tell).
enum class AtomicKind : uint8_t { Unknown = 0, Int = 1, Float = 2 };
// Known bits only, and an atomic not both int and float.
inline bool pc_flags_valid(uint8_t f) { return !(f & ~kPcFlagsKnown) && !((f & PcAtomicInt) && (f & PcAtomicFloat)); }
inline AtomicKind atomic_kind_of(uint8_t pc_flags) {
    return pc_flags & PcAtomicFloat ? AtomicKind::Float : pc_flags & PcAtomicInt ? AtomicKind::Int : AtomicKind::Unknown;
}
// The pc attribute bit of a kind (0 for Unknown): atomic_kind_of's inverse.
inline uint8_t pc_flag_of(AtomicKind k) {
    return k == AtomicKind::Float ? PcAtomicFloat : k == AtomicKind::Int ? PcAtomicInt : 0;
}

struct Record {
    RecKind kind = RecKind::End;
    uint64_t wave_size = 0;     // WaveSize
    KernelInfo kernel;          // Kernel
    uint64_t block = 0;         // Wave: linear block id
    uint64_t wave = 0;          // Wave: wave index in its block
    MemAccess mem;              // Mem
    uint64_t pc = 0;            // Barrier, Wait, PcInfo
    bool has_pc = false;        // Wait: PC given
    uint8_t pc_flags = 0;       // PcInfo: PcFlags
    std::string pc_line;        // PcInfo: source FILE:LINE when PcHasLine
    uint64_t count = 0;         // Compute: instructions
    uint64_t long_count = 0;    // Compute: how many of them are long-latency (conversions, transcendentals)
    uint64_t mid_count = 0;     // Compute: how many take a middle latency (IMAD.HI: high-word multiplies)
    uint64_t lds_count = 0;     // Compute: how many are LDS instructions issued with no lane on (predicated off)
    uint64_t stall = 0;         // Compute: cycles the scheduler holds the wave over them (SASS stall counts; 0: not given)
    uint64_t keep = 0;          // Wait: how many of the wave's youngest memory operations may stay in flight
    HostCall host;              // Copy, Sync, Host, Map
    bool operator==(const Record& o) const;
};

// Errors carry the place (FILE:LINE or FILE: chunk N) already in the message.
struct TraceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A kernel name or source line is one token of the text grammar: printable
// ASCII without spaces or '#', so that text can hold it and read it back.
bool is_token(const std::string& s);

// A number as the text format writes addresses and PCs: 0x-hex.
std::string hex_text(uint64_t v);

// Writers refuse what the readers would refuse (kernel names, source lines):
// throws TraceError.
void check_writable(const Record& r);

// Lanes that exist in wave `wave` of a block of `threads` threads.
uint64_t full_lane_mask(uint64_t threads, uint64_t wave, uint32_t wave_size);

inline unsigned popcount64(uint64_t v) { return unsigned(__builtin_popcountll(v)); }

}  // namespace dcusim::trace
