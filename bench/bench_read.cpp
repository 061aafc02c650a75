// Reads a trace as a sampled run reads the workgroups it skips: every workgroup of every kernel
// decoded, checked and signed (models/dispatch/sampler.h), none regrouped or timed. Reports the
// records and workgroups read per CPU second: the cost of a skipped workgroup before its warming.
//   bench_read TRACE [LINE_BYTES]   (the signature's line size; 128, the H200 preset's L2 line)
#include <cstdio>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

#include "models/dispatch/sampler.h"
#include "traces/replay/kernel_reader.h"

// sc_main: the models library links SystemC, which supplies main.
int sc_main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: bench_read TRACE [LINE_BYTES]\n");
        return 2;
    }
    uint64_t workgroups = 0, instrs = 0, sig = 0;
    const std::clock_t c0 = std::clock();
    try {
        const uint32_t line = argc == 3 ? uint32_t(std::stoul(argv[2])) : 128;
        dcusim::trace::KernelReader rd(std::make_unique<dcusim::trace::TraceStream>(argv[1]), 32);
        while (rd.next_kernel())
            while (rd.read_workgroup()) {
                ++workgroups;
                for (const auto& w : rd.read_waves()) instrs += w.instrs.size();
                for (uint64_t x : dcusim::workgroup_signature(rd.read_waves(), line)) sig += x;
            }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_read: %s\n", e.what());
        return 2;
    }
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("trace %s\nworkgroups %llu\ninstructions %llu\nsignature_sum %llu\ncpu_s %.3f\n", argv[1],
                (unsigned long long)workgroups, (unsigned long long)instrs, (unsigned long long)sig, cpu);
    std::printf("workgroups_per_s %.0f\ninstructions_per_s %.0f\n", double(workgroups) / cpu, double(instrs) / cpu);
    return 0;
}
