#include "record.h"

#include <cstdio>

namespace dcusim::trace {

const char* op_name(Op op) {
    switch (op) {
        case Op::Load: return "ld";
        case Op::Store: return "st";
        case Op::Atomic: return "atom";
    }
    return "?";
}

const char* space_name(Space s) {
    switch (s) {
        case Space::Global: return "global";
        case Space::Lds: return "lds";
        case Space::Const: return "const";
        case Space::Local: return "local";
    }
    return "?";
}

const char* copy_dir_name(CopyDir d) {
    switch (d) {
        case CopyDir::H2D: return "h2d";
        case CopyDir::D2H: return "d2h";
        case CopyDir::D2D: return "d2d";
    }
    return "?";
}

const char* host_mem_name(HostMemKind m) {
    switch (m) {
        case HostMemKind::Pageable: return "pageable";
        case HostMemKind::Pinned: return "pinned";
        case HostMemKind::WriteCombined: return "wc";
        case HostMemKind::Mapped: return "mapped";
        case HostMemKind::Device: return "device";
    }
    return "?";
}

bool KernelInfo::operator==(const KernelInfo& o) const {
    return name == o.name && grid == o.grid && block == o.block && lds_bytes == o.lds_bytes &&
           vgprs == o.vgprs && sgprs == o.sgprs && scratch_bytes == o.scratch_bytes && stream == o.stream &&
           carveout_pct == o.carveout_pct && present == o.present;
}

bool HostCall::operator==(const HostCall& o) const {
    return dir == o.dir && mem == o.mem && async == o.async && has_stream == o.has_stream && stream == o.stream &&
           bytes == o.bytes && base == o.base && ns == o.ns;
}

bool MemAccess::operator==(const MemAccess& o) const {
    return op == o.op && space == o.space && bytes == o.bytes && mask_all == o.mask_all && pc == o.pc &&
           mask == o.mask && mode == o.mode && base == o.base && stride == o.stride && addrs == o.addrs;
}

bool Record::operator==(const Record& o) const {
    if (kind != o.kind) return false;
    switch (kind) {
        case RecKind::WaveSize: return wave_size == o.wave_size;
        case RecKind::Kernel: return kernel == o.kernel;
        case RecKind::Wave: return block == o.block && wave == o.wave;
        case RecKind::Mem: return mem == o.mem;
        case RecKind::Barrier: return pc == o.pc;
        case RecKind::Wait: return has_pc == o.has_pc && (!has_pc || pc == o.pc) && keep == o.keep;
        case RecKind::Compute: return count == o.count && long_count == o.long_count && mid_count == o.mid_count && lds_count == o.lds_count && stall == o.stall;
        case RecKind::End: return true;
        case RecKind::PcInfo: return pc == o.pc && pc_flags == o.pc_flags && pc_line == o.pc_line;
        case RecKind::Copy:
        case RecKind::Sync:
        case RecKind::Host:
        case RecKind::Map: return host == o.host;
    }
    return false;
}

bool is_token(const std::string& s) {
    if (s.empty()) return false;
    for (unsigned char c : s)
        if (c <= ' ' || c >= 0x7f || c == '#') return false;
    return true;
}

std::string hex_text(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

void check_writable(const Record& r) {
    if (r.kind == RecKind::Kernel && !is_token(r.kernel.name))
        throw TraceError("cannot write kernel name '" + r.kernel.name.substr(0, 40) + "': not printable ASCII without spaces or '#'");
    if (r.kind == RecKind::PcInfo && (r.pc_flags & PcHasLine) && !is_token(r.pc_line))
        throw TraceError("cannot write pc source line: not printable ASCII without spaces or '#'");
    if (r.kind == RecKind::PcInfo && !pc_flags_valid(r.pc_flags))
        throw TraceError("cannot write pc attributes: unknown, or an atomic both int and float");
}

uint64_t full_lane_mask(uint64_t threads, uint64_t wave, uint32_t wave_size) {
    if (wave >= threads / wave_size + 1) return 0;  // before the product can wrap
    uint64_t first = wave * wave_size;
    if (first >= threads) return 0;
    uint64_t lanes = threads - first;
    if (lanes >= wave_size) return wave_size == 64 ? ~0ull : ((1ull << wave_size) - 1);
    return (1ull << lanes) - 1;
}

}  // namespace dcusim::trace
