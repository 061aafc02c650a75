// dcusim-tracegen: writes synthetic traces for benchmarks and self-checks.
//   dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT
//   dcusim-tracegen transpose [--n N] [--wave-size 32|64] -o OUT
//   dcusim-tracegen constant [--wave-size 32|64] -o OUT
//   dcusim-tracegen chase [--footprint BYTES] [--stride BYTES] [--loads N] -o OUT
//   dcusim-tracegen stream [--bytes BYTES] [--blocks N] [--waves W] [--lane-bytes B] [--passes P] [--store] -o OUT
// OUT ending in .trace is text, anything else binary. Deterministic: the same
// arguments give the same file.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../format/binary_writer.h"
#include "../format/sink.h"
#include "generators.h"
#include "sim/size.h"  // shared with the presets

using namespace dcusim::trace;

namespace {

[[noreturn]] void usage() {
    std::cerr << "usage: dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT\n"
                 "       dcusim-tracegen transpose [--n N] [--wave-size 32|64] -o OUT   (N a multiple of 32)\n"
                 "       dcusim-tracegen constant [--wave-size 32|64] -o OUT\n"
                 "       dcusim-tracegen chase [--footprint BYTES] [--stride BYTES] [--loads N] [--wave-size 32|64] -o OUT\n"
                 "       dcusim-tracegen stream [--bytes BYTES] [--blocks N] [--waves W] [--lane-bytes 4|8|16] [--passes P]\n"
                 "                              [--wave-size 32|64] [--store] -o OUT   (--store: writes instead of reads)\n";
    std::exit(2);
}

[[noreturn]] void fail(const std::string& why) {
    std::cerr << "dcusim-tracegen: " << why << '\n';
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") usage();
    std::string pattern = argv[1], out_path;
    uint64_t blocks = 64, iters = 100;
    uint32_t waves = 4, ws = 64, n = 64, lane_bytes = 16, passes = 1;
    bool store = false;
    uint64_t footprint = 8192, stride = 128, loads = 1000, bytes = 8 << 20;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto arg = [&]() -> std::string {
            if (i + 1 >= argc) fail(a + " needs a value");
            return argv[++i];
        };
        // Byte options take K, M and G as presets do (the README's `stream --bytes 32M`).
        auto size = [&]() -> uint64_t {
            const std::string v = arg();
            uint64_t x = 0;
            if (!dcusim::parse_size(v, x) || x == 0) fail(a + ": '" + v + "' is not a size (N, NK, NM or NG, above 0)");
            return x;
        };
        auto count = [&](uint64_t max) -> uint64_t {
            const std::string v = arg();
            uint64_t x = 0;
            if (v.find_first_not_of("0123456789") != std::string::npos || !dcusim::parse_size(v, x) || x == 0 || x > max)
                fail(a + ": '" + v + "' is not a whole number from 1 to " + std::to_string(max));
            return x;
        };
        constexpr uint64_t k32 = 0xffffffffu;
        if (a == "-o") out_path = arg();
        else if (a == "--blocks") blocks = count(k32);
        else if (a == "--waves") waves = uint32_t(count(1024));
        else if (a == "--iters") iters = count(k32);
        else if (a == "--wave-size") ws = uint32_t(count(64));
        else if (a == "--n") n = uint32_t(count(1u << 16));
        else if (a == "--footprint") footprint = size();
        else if (a == "--stride") stride = size();
        else if (a == "--loads") loads = count(k32);
        else if (a == "--bytes") bytes = size();
        else if (a == "--lane-bytes") lane_bytes = uint32_t(count(16));
        else if (a == "--passes") passes = uint32_t(count(k32));
        else if (a == "--store") store = true;
        else fail("unknown option '" + a + "'");
    }
    if (pattern != "lds-const" && pattern != "transpose" && pattern != "constant" && pattern != "chase" && pattern != "stream")
        fail("unknown pattern '" + pattern + "' (lds-const, transpose, constant, chase, stream)");
    if (out_path.empty()) fail("needs -o OUT");
    if (ws != 32 && ws != 64) fail("--wave-size must be 32 or 64");
    if (lane_bytes != 4 && lane_bytes != 8 && lane_bytes != 16) fail("--lane-bytes must be 4, 8 or 16");
    if (n % 32) fail("--n must be a multiple of 32");
    std::ofstream f(out_path, std::ios::binary | std::ios::trunc);
    if (!f) {
        std::cerr << "dcusim-tracegen: " << out_path << ": cannot write\n";
        return 2;
    }
    bool text = out_path.size() > 6 && out_path.compare(out_path.size() - 6, 6, ".trace") == 0;
    std::unique_ptr<RecordSink> sink;
    if (text) sink = std::make_unique<TextWriter>(f);
    else sink = std::make_unique<BinaryWriter>(f);
    Record r;
    r.kind = RecKind::WaveSize;
    r.wave_size = ws;
    sink->write(r);
    if (pattern == "lds-const") gen_lds_const(*sink, blocks, waves, iters, ws);
    else if (pattern == "transpose") gen_transpose(*sink, n, ws);
    else if (pattern == "constant") gen_constant(*sink, ws);
    else if (pattern == "chase") gen_chase(*sink, footprint, stride, loads, ws);
    else gen_stream(*sink, bytes, uint32_t(blocks), waves, lane_bytes, passes, ws, store);
    sink->finish();
    return 0;
}
