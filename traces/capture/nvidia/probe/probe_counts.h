// What the probe's patches count per launch (probe_patch.cu, probe_tool.cpp).
#pragma once

#include <cstdint>

constexpr int kProbeClasses = 3;   // global, shared, local
constexpr int kProbeFlags = 16;    // READ, WRITE, ATOMSYS, PREFETCH combinations
constexpr int kProbeSlots = 4096;  // SASS instructions (16 bytes each) counted by offset

struct ProbeCounts {
    unsigned long long base;  // the function's first PC
    unsigned long long calls[kProbeClasses][kProbeFlags];
    unsigned int flag_or[kProbeClasses];
    unsigned long long ptr_min[kProbeClasses], ptr_max[kProbeClasses];
    unsigned int pc_calls[kProbeClasses][kProbeSlots];
};
