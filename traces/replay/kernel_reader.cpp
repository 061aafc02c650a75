#include "kernel_reader.h"

#include <algorithm>

namespace dcusim::trace {

KernelReader::KernelReader(std::unique_ptr<TraceStream> stream, uint32_t target_wave_size)
    : stream_(std::move(stream)), target_(target_wave_size) {}

bool KernelReader::pull() {
    if (have_rec_) return true;
    have_rec_ = stream_->next(rec_);
    return have_rec_;
}

bool KernelReader::next_kernel() {
    // Skip what is left of the current kernel.
    while (in_kernel_ && read_workgroup()) {}
    host_.clear();
    while (pull()) {
        have_rec_ = false;
        if (rec_.kind == RecKind::Kernel) {
            kernel_ = rec_.kernel;
            in_kernel_ = true;
            // Its `pc` declarations come before its first wave.
            pc_attrs_.clear();
            pc_lines_.clear();
            while (pull() && rec_.kind == RecKind::PcInfo) {
                const uint8_t marks = rec_.pc_flags & (PcReadOnly | PcAtomicInt | PcAtomicFloat);
                if (marks) pc_attrs_.emplace_back(rec_.pc, marks);
                if (rec_.pc_flags & PcHasLine) pc_lines_[rec_.pc] = rec_.pc_line;
                have_rec_ = false;
            }
            // One entry a PC, its declarations' attributes together (TraceStream refused two kinds).
            std::sort(pc_attrs_.begin(), pc_attrs_.end());
            size_t n = 0;
            for (const auto& [pc, marks] : pc_attrs_) {
                if (n && pc_attrs_[n - 1].first == pc) pc_attrs_[n - 1].second |= marks;
                else pc_attrs_[n++] = {pc, marks};
            }
            pc_attrs_.resize(n);
            return true;
        }
        // wave_size comes before the first kernel; TraceStream allows nothing else here but
        // host statements.
        if (is_host_statement(rec_.kind)) host_.push_back(rec_);
    }
    return false;
}

bool KernelReader::next_workgroup(WorkgroupTrace& wg) {
    if (!read_workgroup()) return false;
    take_workgroup(wg);
    return true;
}

bool KernelReader::read_workgroup() {
    if (!in_kernel_) return false;
    const uint32_t lanes = stream_->wave_size();
    const uint64_t threads = kernel_.block.count();
    waves_.resize(size_t((threads + lanes - 1) / lanes));
    for (WaveTrace& w : waves_) w.instrs.clear(), w.pool.clear();  // capacity kept
    bool started = false;
    WaveTrace* cur = nullptr;
    while (pull()) {
        if (rec_.kind == RecKind::End) {
            have_rec_ = false;
            in_kernel_ = false;
            break;
        }
        if (rec_.kind == RecKind::Wave) {
            if (started && rec_.block != block_) break;  // next workgroup: keep the record
            block_ = rec_.block;
            started = true;
            cur = &waves_[rec_.wave];
        }
        const size_t from = cur->instrs.size();
        if (rec_.kind != RecKind::Wave) cur->append(rec_);
        have_rec_ = false;
        // The wave's instructions that follow, straight from the source; what they stop at, from pull().
        stream_->next_instrs(cur->instrs, cur->pool);
        if (!pc_attrs_.empty()) mark_attributes(*cur, from);
    }
    return started;
}

void KernelReader::mark_attributes(WaveTrace& w, size_t from) const {
    for (size_t i = from; i < w.instrs.size(); ++i) {
        Instr& in = w.instrs[i];
        if (in.kind != RecKind::Mem) continue;
        const auto it = std::lower_bound(pc_attrs_.begin(), pc_attrs_.end(), std::make_pair(in.pc, uint8_t(0)));
        if (it == pc_attrs_.end() || it->first != in.pc) continue;
        in.readonly = it->second & PcReadOnly;
        in.atomic = atomic_kind_of(it->second);
    }
}

void KernelReader::take_workgroup(WorkgroupTrace& wg) {
    wg.block = block_;
    // Copies of exactly their size: the read buffers keep their capacity for the next workgroup, and a
    // resident wave holds no room its growth left (up to half of it, in pages the host must clear).
    std::vector<WaveTrace> waves(waves_.size());
    for (size_t i = 0; i < waves.size(); ++i) {
        waves[i].instrs.assign(waves_[i].instrs.begin(), waves_[i].instrs.end());
        waves[i].pool.assign(waves_[i].pool.begin(), waves_[i].pool.end());
    }
    wg.waves = regroup_waves(std::move(waves), stream_->wave_size(), target_, kernel_.block.count());
}

}  // namespace dcusim::trace
