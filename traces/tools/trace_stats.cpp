#include "trace_stats.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "../format/source.h"

namespace dcusim::trace {

TraceSummary summarize_trace(const std::string& path) {
    TraceStream s(path);
    TraceSummary out;
    Record r;
    KernelSummary* k = nullptr;
    bool any_block = false;
    uint64_t last_block = 0;
    std::vector<uint64_t> addrs, ro_pcs;
    while (s.next(r)) {
        switch (r.kind) {
            case RecKind::WaveSize: out.wave_size = r.wave_size; break;
            case RecKind::PcInfo:
                if (r.pc_flags & PcReadOnly) ro_pcs.push_back(r.pc);
                break;
            case RecKind::Kernel:
                ro_pcs.clear();
                out.kernels.emplace_back();
                k = &out.kernels.back();
                k->info = r.kernel;
                any_block = false;
                break;
            case RecKind::Wave:
                ++k->waves;
                if (!any_block || r.block != last_block) ++k->blocks;
                any_block = true;
                last_block = r.block;
                break;
            case RecKind::Mem: {
                const MemAccess& m = r.mem;
                bool ro = std::find(ro_pcs.begin(), ro_pcs.end(), m.pc) != ro_pcs.end();
                auto& e = k->mem[std::string(op_name(m.op)) + " " + space_name(m.space) + (ro ? " ro" : "")];
                unsigned lanes = popcount64(m.mask);
                ++e.instructions;
                e.lanes += lanes;
                e.bytes += uint64_t(lanes) * m.bytes;
                ++k->instructions;
                addrs.clear();
                if (m.mode == AddrMode::List) {
                    addrs = m.addrs;
                } else {
                    for (uint64_t mm = m.mask; mm; mm &= mm - 1) addrs.push_back(m.lane_addr_affine(unsigned(__builtin_ctzll(mm))));
                }
                std::sort(addrs.begin(), addrs.end());
                size_t distinct = size_t(std::unique(addrs.begin(), addrs.end()) - addrs.begin());
                ++e.distinct[unsigned(distinct)];
                break;
            }
            case RecKind::Barrier: ++k->barriers; ++k->instructions; break;
            case RecKind::Wait: ++k->waits; ++k->instructions; break;
            case RecKind::Compute: k->compute += r.count; k->instructions += r.count; break;
            case RecKind::End: k = nullptr; break;
            case RecKind::Copy: {
                auto& c = out.copies[std::string(copy_dir_name(r.host.dir)) + " " + host_mem_name(r.host.mem)];
                ++c.first;
                c.second += r.host.bytes;
                break;
            }
            case RecKind::Sync: ++out.syncs; break;
            case RecKind::Host: out.host_ns += r.host.ns; break;
            case RecKind::Map: ++out.maps, out.map_bytes += r.host.bytes; break;
        }
    }
    return out;
}

std::string format_summary(const TraceSummary& s) {
    std::ostringstream o;
    o << "wave_size " << s.wave_size << "\nkernels " << s.kernels.size() << '\n';
    for (const auto& [what, c] : s.copies) o << "copies " << what << ": " << c.first << " (" << c.second << " bytes)\n";
    if (s.syncs || s.host_ns) o << "syncs " << s.syncs << "  host time " << s.host_ns << " ns\n";
    if (s.maps) o << "mapped ranges " << s.maps << " (" << s.map_bytes << " bytes)\n";
    for (size_t i = 0; i < s.kernels.size(); ++i) {
        const KernelSummary& k = s.kernels[i];
        const KernelInfo& ki = k.info;
        o << "\nkernel " << i << ": " << ki.name << "  grid " << ki.grid.x << 'x' << ki.grid.y << 'x' << ki.grid.z << "  block "
          << ki.block.x << 'x' << ki.block.y << 'x' << ki.block.z;
        if (ki.present & KernelInfo::HasLds) o << "  lds " << ki.lds_bytes;
        if (ki.present & KernelInfo::HasVgprs) o << "  vgprs " << ki.vgprs;
        if (ki.present & KernelInfo::HasSgprs) o << "  sgprs " << ki.sgprs;
        if (ki.present & KernelInfo::HasScratch) o << "  scratch " << ki.scratch_bytes;
        if (ki.present & KernelInfo::HasStream) o << "  stream " << ki.stream;
        if (ki.present & KernelInfo::HasCarveout) o << "  carveout " << ki.carveout_pct << " %";
        o << "\n  blocks " << k.blocks << "  waves " << k.waves << "  instructions " << k.instructions << "  (compute "
          << k.compute << ", barriers " << k.barriers << ", waits " << k.waits << ")\n";
        o << "  memory      instructions        lanes        bytes  distinct addresses: instructions\n";
        for (const auto& [name, e] : k.mem) {
            char line[160];
            std::snprintf(line, sizeof line, "  %-11s %12llu %12llu %12llu ", name.c_str(),
                          static_cast<unsigned long long>(e.instructions), static_cast<unsigned long long>(e.lanes),
                          static_cast<unsigned long long>(e.bytes));
            o << line;
            for (const auto& [d, n] : e.distinct) o << ' ' << d << ':' << n;
            o << '\n';
        }
    }
    return o.str();
}

}  // namespace dcusim::trace
