// Where a global address lives: device memory (the DRAM), or host memory mapped
// into the device's address space (a trace's `map` statements). The aperture
// sits between the L2 slices and memory and sends each line request, fill or
// write-back, to the side its address belongs to, as a GPU's memory aperture
// tells system memory from video memory behind its L2.
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "../common/request.h"

namespace dcusim {

// Mapped ranges [base, base + bytes), disjoint (the trace reader refuses overlaps), kept sorted.
class MappedRanges {
public:
    void add(uint64_t base, uint64_t bytes) {
        const std::pair<uint64_t, uint64_t> r{base, base + bytes};
        ranges_.insert(std::upper_bound(ranges_.begin(), ranges_.end(), r), r);
    }
    bool empty() const { return ranges_.empty(); }
    bool contains(uint64_t addr) const {
        if (ranges_.empty()) return false;
        auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::pair<uint64_t, uint64_t>{addr, ~uint64_t(0)});
        return it != ranges_.begin() && addr < std::prev(it)->second;
    }

private:
    std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

class Aperture : public sc_core::sc_module, public MemTargetIf {
public:
    sc_core::sc_port<MemTargetIf> device, host;
    Aperture(sc_core::sc_module_name name, const MappedRanges& ranges) : sc_module(name), ranges_(ranges) {}
    void mem_request(MemRequest& req) override { (ranges_.contains(req.addr) ? host : device)->mem_request(req); }

private:
    const MappedRanges& ranges_;
};

}  // namespace dcusim
