// The kernels of trace files as a WorkgroupSource (the program's; the dispatcher sees only the
// interface).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernel_reader.h"
#include "workgroup_source.h"

namespace dcusim::trace {

// The kernels of trace files, file after file, one workgroup decoded at a time.
class TraceFiles : public WorkgroupSource {
public:
    TraceFiles(std::vector<std::string> paths, uint32_t target_wave_size)
        : paths_(std::move(paths)), target_(target_wave_size) {}
    bool next_kernel() override {
        host_.clear();
        for (;;) {
            if (reader_) {
                const bool more = reader_->next_kernel();
                host_.insert(host_.end(), reader_->host().begin(), reader_->host().end());  // a file's last ones, then the next's first
                if (more) return true;
            }
            if (next_ == paths_.size()) return false;
            reader_ = std::make_unique<KernelReader>(std::make_unique<TraceStream>(paths_[next_++]), target_);
        }
    }
    const std::vector<Record>& host_before() const override { return host_; }
    uint32_t capture_wave_size() const { return reader_->capture_wave_size(); }  // the current kernel's file's
    const KernelInfo& kernel() const override { return reader_->kernel(); }
    const std::map<uint64_t, std::string>& pc_lines() const override { return reader_->pc_lines(); }
    bool next_workgroup(WorkgroupTrace& wg) override { return reader_->next_workgroup(wg); }
    const std::vector<WaveTrace>* peek_workgroup() override { return reader_->read_workgroup() ? &reader_->read_waves() : nullptr; }
    void take_workgroup(WorkgroupTrace& wg) override { reader_->take_workgroup(wg); }

private:
    std::vector<std::string> paths_;
    uint32_t target_;
    size_t next_ = 0;
    std::unique_ptr<KernelReader> reader_;
    std::vector<Record> host_;
};

}  // namespace dcusim::trace
