#include <cstdio>
#include <sstream>

#include "sink.h"

namespace dcusim::trace {

static std::string signed_hex(int64_t v) {
    return v < 0 ? "-" + hex_text(uint64_t(0) - uint64_t(v)) : hex_text(uint64_t(v));
}

std::string format_record(const Record& r) {
    std::ostringstream o;
    switch (r.kind) {
        case RecKind::WaveSize: o << "wave_size " << r.wave_size; break;
        case RecKind::Kernel: {
            const KernelInfo& k = r.kernel;
            o << "kernel " << k.name << " grid " << k.grid.x << ' ' << k.grid.y << ' ' << k.grid.z << " block "
              << k.block.x << ' ' << k.block.y << ' ' << k.block.z;
            if (k.present & KernelInfo::HasLds) o << " lds " << k.lds_bytes;
            if (k.present & KernelInfo::HasVgprs) o << " vgprs " << k.vgprs;
            if (k.present & KernelInfo::HasSgprs) o << " sgprs " << k.sgprs;
            if (k.present & KernelInfo::HasScratch) o << " scratch " << k.scratch_bytes;
            if (k.present & KernelInfo::HasStream) o << " stream " << k.stream;
            if (k.present & KernelInfo::HasCarveout) o << " carveout " << k.carveout_pct;
            break;
        }
        case RecKind::Wave: o << "wave " << r.block << ' ' << r.wave; break;
        case RecKind::Mem: {
            const MemAccess& m = r.mem;
            o << op_name(m.op) << ' ' << space_name(m.space) << ' ' << unsigned(m.bytes) << ' ' << hex_text(m.pc) << ' '
              << (m.mask_all ? std::string("all") : hex_text(m.mask));
            if (m.mode == AddrMode::Affine) {
                o << " affine " << hex_text(m.base) << ' ' << signed_hex(m.stride);
            } else {
                o << " list";
                for (uint64_t a : m.addrs) o << ' ' << hex_text(a);
            }
            break;
        }
        case RecKind::Barrier: o << "bar " << hex_text(r.pc); break;
        case RecKind::Wait:
            o << "wait";
            if (r.has_pc) o << ' ' << hex_text(r.pc);
            if (r.keep) o << " keep " << r.keep;
            break;
        case RecKind::Compute:
            o << "compute " << r.count;
            if (r.long_count) o << " long " << r.long_count;
            if (r.mid_count) o << " mid " << r.mid_count;
            if (r.lds_count) o << " lds " << r.lds_count;
            if (r.stall) o << " stall " << r.stall;
            break;
        case RecKind::End: o << "end"; break;
        case RecKind::Copy:
            o << "copy " << copy_dir_name(r.host.dir) << ' ' << r.host.bytes << ' ' << host_mem_name(r.host.mem);
            if (r.host.has_stream) o << " stream " << r.host.stream;
            if (r.host.async) o << " async";
            break;
        case RecKind::Sync:
            o << "sync";
            if (r.host.has_stream) o << " stream " << r.host.stream;
            break;
        case RecKind::Host: o << "host " << r.host.ns; break;
        case RecKind::Map: o << "map " << hex_text(r.host.base) << ' ' << r.host.bytes; break;
        case RecKind::PcInfo:
            o << "pc " << hex_text(r.pc);
            if (r.pc_flags & PcReadOnly) o << " readonly";
            if (r.pc_flags & PcAtomicInt) o << " atomic int";
            if (r.pc_flags & PcAtomicFloat) o << " atomic float";
            if (r.pc_flags & PcHasLine) o << " line " << r.pc_line;
            break;
    }
    return o.str();
}

void TextWriter::write(const Record& r) {
    check_writable(r);
    if (!header_) {
        out_ << "dcusim-trace 1\n";
        header_ = true;
    }
    out_ << format_record(r) << '\n';
}

void TextWriter::finish() {
    if (!header_) out_ << "dcusim-trace 1\n";
    header_ = true;
    out_.flush();
    if (!out_) throw TraceError("write error");
}

}  // namespace dcusim::trace
