// Replays one trace through the whole platform and reports throughput and
// peak memory. One simulation per process (SystemC), so run it once per
// trace; bench/run.sh drives it.
//   bench_replay TRACE [--config PRESET]... [--KEY VALUE]...  (each --config layers on the ones before)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <systemc>

#include "sim/config.h"
#include "sim/platform.h"
#include "sim/host_memory.h"

int sc_main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_replay TRACE [--config PRESET] [--KEY VALUE]...\n");
        return 2;
    }
    dcusim::Config cfg;
    dcusim::RunOptions ro;
    ro.progress = false;
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    dcusim::RunResult r;
    try {
        if (argc % 2) throw std::runtime_error(std::string(argv[argc - 1]) + ": an option without its value");
        for (int i = 2; i + 1 < argc; i += 2) {
            const std::string a = argv[i];
            if (a.rfind("--", 0) != 0) throw std::runtime_error(a + ": expected --config PRESET or --KEY VALUE");
            if (a == "--config") cfg.load_file(argv[i + 1]);
            else cfg.set(a.substr(2), argv[i + 1], a);
        }
        t0 = std::chrono::steady_clock::now();
        c0 = std::clock();
        r = dcusim::simulate(cfg, {argv[1]}, ro);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_replay: %s\n", e.what());
        return 2;
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const auto& t = r.total;
    // Wave instructions replayed: memory, barrier and wait instructions; a
    // `compute N` record is one more (it is one step of the model, whatever N).
    double mem = t.at("mem.instructions"), bar = t.at("barriers"), wait = t.at("waits");
    std::printf("trace %s\n", argv[1]);
    std::printf("wave_instructions %.0f\nmem_instructions %.0f\nsimulated_cycles %.0f\n", mem + bar + wait, mem,
                t.at("cycles"));
    std::printf("wall_s %.3f\ncpu_s %.3f\nwave_instructions_per_s %.0f\nmem_instructions_per_s %.0f\n", wall, cpu,
                (mem + bar + wait) / cpu, mem / cpu);
    // Executed wave instructions as the profiler counts them (`compute N` is N;
    // a `wait` is no machine instruction): the unit of Accel-Sim's published speed.
    const double executed = t.at("instructions") - wait;
    std::printf("executed_instructions %.0f\nexecuted_instructions_per_s %.0f\n", executed, executed / cpu);
    if (t.count("l1.requests")) {
        // Through the global-memory path: L1 line lookups and DRAM bursts per second.
        std::printf("l1_lines %.0f\nl1_lines_per_s %.0f\ndram_bursts_per_s %.0f\n", t.at("l1.requests"),
                    t.at("l1.requests") / cpu, (t.at("dram.reads") + t.at("dram.writes")) / cpu);
    }
    std::printf("peak_rss_mib %.1f\n", ru.ru_maxrss / 1024.0);
    return 0;
}

int main(int argc, char** argv) {
    dcusim::back_heap_with_huge_pages();
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
