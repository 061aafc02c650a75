// Trips of loops the Sanitizer reports nothing from: a loop with no memory
// instruction, or with only spill code, which it does not report. The walk
// between two captured anchors crosses such a loop's closing branch once; a
// profiler's count of how often each instruction ran (warp-level, summed over
// the launch: ncu's source counters) says how often the branch really ran.
// Each crossing then goes round the loop as many more times as the launch's
// mean says, the fraction carried from one crossing to the next, so that the
// walk's total matches the profile (docs/CAPTURE.md, "Loops with nothing
// captured").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sass.h"

namespace dcutrace {

// Executions of each SASS offset of one launch.
using PcCounts = std::map<uint32_t, uint64_t>;

// A profile's counts by launch: the program's launches numbered from 0 in the order they ran (all of them,
// as a profiler that was given no filter saw them), each with its kernel's name as the profiler wrote it.
class ProfileCounts {
public:
    // Lines `FUNCTION,LAUNCH,OFFSET,EXECUTED` (OFFSET hex with 0x, or decimal; `#` comments; FUNCTION
    // without commas); an error names the file and line.
    bool load(const std::string& path, std::string& error);
    bool parse(const std::string& text, const std::string& path, std::string& error);
    // The counts of launch `launch`, if the profile has it and names the same kernel (`name`, mangled or
    // not: compared by the identifier before its parameters and template arguments).
    const PcCounts* find(uint64_t launch, const std::string& name) const;
    bool empty() const { return launches_.empty(); }

private:
    struct Launch {
        std::string function;
        PcCounts counts;
    };
    std::map<uint64_t, Launch> launches_;
};

// The identifier a kernel name comes down to: `ns::k<4>(float*, int)`, `void k<4>(float *)` and `_Z1kILi4EEvPf` -> `k`.
std::string kernel_identifier(const std::string& name);

class LoopTrips {
public:
    // `walks`: how often each warp went from one anchor index to the next (-1: the function's entry;
    // kExit as the second: from the last to EXIT), over the whole launch.
    static constexpr int kExit = -2;
    LoopTrips(const SassFunction& f, const PcCounts& counts, const std::map<std::pair<int, int>, uint64_t>& walks);

    // How many more times the walk goes round the loop that branch `i` closes, this crossing (0 for
    // anything else), and where that loop starts.
    uint64_t extra(int i);
    int start(int i) const { return f_.instrs[i].branch_target; }
    size_t loops() const { return fills_.size(); }  // loops filled

private:
    struct Fill {
        double extra;      // more trips per crossing, the launch's mean
        double carry = 0;  // the fraction the crossings so far left over
    };
    const SassFunction& f_;
    std::map<int, Fill> fills_;  // by closing branch
};

// Closing branches of innermost loops that hold nothing a capture sees: no anchor and no call.
std::vector<int> silent_loops(const SassFunction& f);

}  // namespace dcutrace
