// Bandwidth self-checks: enough waves streaming reads keep DRAM at 90% or
// more of the preset's peak (channels x burst bytes per tBURST memory cycles),
// and an L2-resident stream at 90% or more of the L2's peak (channels x the
// smaller of a NoC link's load rate and one L1 line per lookup cycle). Both include the
// ramp: the first request's latency counts against them; the kernel launch
// overhead (cu.launch_cycles) does not, since it is not the memory system's.
// A write stream larger than the L2 writes to DRAM at no more than its peak.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "sim/preset.h"
#include "traces/tools/generators.h"

using namespace dcusim;
using namespace dcusim::test;

namespace {
double dram_peak(const Preset& p) {
    return double(p.dram.channels) * p.dram.burst_bytes / p.dram.t.BURST * p.dram.clock_mhz / p.clock_mhz;
}

double stream_dram_fraction(const std::string& name, uint32_t blocks, uint32_t waves) {
    Config cfg = preset(name, {{"cu.launch_cycles", "0"}});
    Preset p = preset_registry::load(cfg);
    const uint64_t bytes = 32 << 20;
    auto path = write_generated("bw.dctrace", p.cu.wave_size, [&](trace::RecordSink& s) {
        trace::gen_stream(s, bytes, blocks, waves, 16, 1, p.cu.wave_size);
    });
    auto r = run_files(cfg, {path});
    REQUIRE(stat(r, "dram.read_bytes") == bytes);
    return bytes / stat(r, "cycles") / dram_peak(p);
}
}  // namespace

TEST_CASE("Z100: a 32 MiB stream runs at 90% or more of the HBM2 peak", "[sim][bandwidth]") {
    double f = stream_dram_fraction("dcu-z100", 256, 4);
    INFO("fraction of peak " << f);
    CHECK(f >= 0.90);
    CHECK(f <= 1.0);
}

TEST_CASE("H200: a 32 MiB stream runs at 90% or more of the HBM3e peak", "[sim][bandwidth]") {
    double f = stream_dram_fraction("h200", 528, 8);
    INFO("fraction of peak " << f);
    CHECK(f >= 0.90);
    CHECK(f <= 1.0);
}

namespace {
// The second of two passes over `bytes` that fit the L2 (the L1 is emptied between kernels).
double stream_l2_fraction(const std::string& name, uint64_t bytes, uint32_t blocks, uint32_t waves) {
    Config cfg = preset(name, {{"cu.launch_cycles", "0"}});
    Preset p = preset_registry::load(cfg);
    auto path = write_generated("l2bw.dctrace", p.cu.wave_size, [&](trace::RecordSink& s) {
        trace::gen_stream(s, bytes, blocks, waves, 16, 1, p.cu.wave_size);  // from DRAM
        trace::gen_stream(s, bytes, blocks, waves, 16, 1, p.cu.wave_size);  // again, from the L2
    });
    auto r = run_files(cfg, {path});
    REQUIRE(stat(r, "l2.hits", 1) == stat(r, "l2.requests", 1));
    const double link = p.noc.load_bytes_per_cycle > 0 ? p.noc.load_bytes_per_cycle : p.noc.bytes_per_cycle;
    const double peak = double(p.noc.channels) * std::min<double>(link, p.l2.lookups_per_cycle * p.l1.geometry.line_bytes);
    return bytes / stat(r, "cycles", 1) / peak;
}
}  // namespace

TEST_CASE("Z100: an L2-resident stream runs at 90% or more of the L2 peak", "[sim][bandwidth]") {
    double f = stream_l2_fraction("dcu-z100", 3 << 20, 256, 4);  // fits the 4 MiB L2
    INFO("fraction of peak " << f);
    CHECK(f >= 0.90);
    CHECK(f <= 1.0);
}

TEST_CASE("H200: an L2-resident stream runs at 90% or more of the L2 peak", "[sim][bandwidth]") {
    // 96 channels x 49 B/clk (noc.load_bytes_per_cycle, measured): 9.3 TB/s at 1.98 GHz.
    double f = stream_l2_fraction("h200", 24 << 20, 528, 8);
    INFO("fraction of peak " << f);
    CHECK(f >= 0.90);
    CHECK(f <= 1.0);
}

namespace {
// A 16 MiB write stream through the 4 MiB L2: 12 MiB of dirty lines go to DRAM while it runs.
double write_stream_fraction(const char* writeback_buffers) {
    Config cfg = preset("dcu-z100", {{"cu.launch_cycles", "0"}, {"l2.writeback_buffers", writeback_buffers}});
    Preset p = preset_registry::load(cfg);
    auto path = write_generated("wbw.dctrace", 64, [&](trace::RecordSink& s) {
        trace::gen_stream(s, 16 << 20, 256, 4, 16, 1, 64, true);
    });
    auto r = run_files(cfg, {path});
    REQUIRE(stat(r, "dram.write_bytes") == 12 << 20);
    return stat(r, "dram.write_bytes") / stat(r, "cycles") / dram_peak(p);
}
}  // namespace

TEST_CASE("Z100: a write stream cannot outrun DRAM: the L2 waits for write-back buffers", "[sim][bandwidth]") {
    double f = write_stream_fraction("256");
    INFO("fraction of peak " << f);
    CHECK(f <= 1.0);
    CHECK(f >= 0.5);
}

TEST_CASE("Z100: without a write-back limit the same stream writes faster than DRAM can", "[sim][bandwidth]") {
    // What l2.writeback_buffers = 0 (no limit) means: the L2 hands DRAM more than its peak.
    CHECK(write_stream_fraction("0") > 1.0);
}
