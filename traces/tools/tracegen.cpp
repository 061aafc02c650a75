// dcusim-tracegen: writes synthetic traces for benchmarks and self-checks.
//   dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT
//   dcusim-tracegen transpose [--n N] [--wave-size 32|64] -o OUT
//   dcusim-tracegen constant [--wave-size 32|64] -o OUT
//   dcusim-tracegen chase [--footprint BYTES] [--stride BYTES] [--loads N] -o OUT
//   dcusim-tracegen stream [--bytes BYTES] [--blocks N] [--waves W] [--lane-bytes B] [--passes P] [--store] -o OUT
// OUT ending in .trace is text, anything else binary. Deterministic: the same
// arguments give the same file.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../format/binary_writer.h"
#include "../format/sink.h"
#include "generators.h"
#include "sim/cli_options.h"  // the options as dcusim's commands parse them

using namespace dcusim::trace;
namespace cli = dcusim::cli;
namespace po = boost::program_options;

namespace {

const char* kUsage =
    "usage: dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT\n"
    "       dcusim-tracegen transpose [--n N] [--wave-size 32|64] -o OUT   (N a multiple of 32)\n"
    "       dcusim-tracegen constant [--wave-size 32|64] -o OUT\n"
    "       dcusim-tracegen chase [--footprint BYTES] [--stride BYTES] [--loads N] [--wave-size 32|64] -o OUT\n"
    "       dcusim-tracegen stream [--bytes BYTES] [--blocks N] [--waves W] [--lane-bytes 4|8|16] [--passes P]\n"
    "                              [--wave-size 32|64] [--store] -o OUT   (--store: writes instead of reads)\n";

// Byte options take K, M and G as the preset keys do (the README's `stream --bytes 32M`).
po::options_description options() {
    constexpr uint64_t k32 = 0xffffffffu;
    po::options_description o("options");
    o.add_options()("out,o", po::value<std::string>()->value_name("OUT"), "the trace: text if it ends in .trace, else binary")(
        "blocks", cli::count(k32)->value_name("N")->default_value(64), "workgroups (lds-const, stream)")(
        "waves", cli::count(1024)->value_name("W")->default_value(4), "waves per workgroup (lds-const, stream)")(
        "iters", cli::count(k32)->value_name("I")->default_value(100), "iterations per wave (lds-const)")(
        "wave-size", cli::count(64)->value_name("32|64")->default_value(64), "lanes per wave")(
        "n", cli::count(1u << 16)->value_name("N")->default_value(64), "the matrix is N x N floats (transpose)")(
        "footprint", cli::size()->value_name("BYTES")->default_value(8192, "8K"), "bytes the loads wrap around in (chase)")(
        "stride", cli::size()->value_name("BYTES")->default_value(128), "bytes from one load to the next (chase)")(
        "loads", cli::count(k32)->value_name("N")->default_value(1000), "dependent loads (chase)")(
        "bytes", cli::size()->value_name("BYTES")->default_value(8 << 20, "8M"), "bytes streamed (stream)")(
        "lane-bytes", cli::count(16)->value_name("4|8|16")->default_value(16), "bytes per lane and instruction (stream)")(
        "passes", cli::count(k32)->value_name("P")->default_value(1), "times over the bytes (stream)")(
        "store", po::bool_switch(), "writes instead of reads (stream)")("help,h", po::bool_switch(), "this help");
    return o;
}

[[noreturn]] void fail(const std::string& why) {
    std::cerr << "dcusim-tracegen: " << why << '\n';
    std::exit(2);
}

// The command line, or exit 2 with one line.
po::variables_map parse(const std::vector<std::string>& words, const po::options_description& visible) {
    po::options_description all;
    all.add(visible).add_options()("pattern", po::value<std::vector<std::string>>());
    po::positional_options_description pos;
    pos.add("pattern", -1);
    try {
        return cli::parse(words, all, pos);
    } catch (const cli::UsageError& e) {
        fail(e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const po::options_description opts = options();
    const po::variables_map vm = parse(std::vector<std::string>(argv + 1, argv + argc), opts);
    if (vm["help"].as<bool>()) {
        std::cout << kUsage << '\n' << opts;
        return 0;
    }
    const auto patterns = vm.count("pattern") ? vm["pattern"].as<std::vector<std::string>>() : std::vector<std::string>();
    if (patterns.size() > 1) fail("one pattern only ('" + patterns[1] + "')");
    const std::string pattern = patterns.empty() ? "" : patterns[0];
    const std::string out_path = vm.count("out") ? vm["out"].as<std::string>() : "";
    auto u = [&](const char* name) { return vm[name].as<uint64_t>(); };
    auto u32 = [&](const char* name) { return uint32_t(vm[name].as<uint64_t>()); };  // each count's range fits
    const uint32_t ws = u32("wave-size"), lane_bytes = u32("lane-bytes");
    if (pattern.empty()) fail("needs a pattern (lds-const, transpose, constant, chase, stream)");
    if (pattern != "lds-const" && pattern != "transpose" && pattern != "constant" && pattern != "chase" && pattern != "stream")
        fail("unknown pattern '" + pattern + "' (lds-const, transpose, constant, chase, stream)");
    if (out_path.empty()) fail("needs -o OUT");
    if (ws != 32 && ws != 64) fail("--wave-size must be 32 or 64");
    if (lane_bytes != 4 && lane_bytes != 8 && lane_bytes != 16) fail("--lane-bytes must be 4, 8 or 16");
    if (u32("n") % 32) fail("--n must be a multiple of 32");
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
    if (pattern == "lds-const") gen_lds_const(*sink, u("blocks"), u32("waves"), u("iters"), ws);
    else if (pattern == "transpose") gen_transpose(*sink, u32("n"), ws);
    else if (pattern == "constant") gen_constant(*sink, ws);
    else if (pattern == "chase") gen_chase(*sink, u("footprint"), u("stride"), u("loads"), ws);
    else gen_stream(*sink, u("bytes"), u32("blocks"), u32("waves"), lane_bytes, u32("passes"), ws, vm["store"].as<bool>());
    sink->finish();
    return 0;
}
