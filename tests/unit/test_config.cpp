// Preset keys: sizes, checks that name the key, and the shipped presets.
#include <catch2/catch.hpp>

#include <algorithm>

#include "helpers.h"
#include "sim/config.h"
#include "sim/preset.h"

using namespace dcusim;

TEST_CASE("sizes take K, M and G", "[config]") {
    uint64_t v = 0;
    CHECK(parse_size("64K", v));
    CHECK(v == 65536);
    CHECK(parse_size("2M", v));
    CHECK(v == 2u << 20);
    CHECK(parse_size("1G", v));
    CHECK(v == 1u << 30);
    CHECK(parse_size("100", v));
    CHECK(v == 100);
    CHECK_FALSE(parse_size("64Q", v));
    CHECK_FALSE(parse_size("K", v));
    CHECK_FALSE(parse_size("-4", v));
}

TEST_CASE("bad keys and values are errors naming the key", "[config][bad-input]") {
    Config c;
    CHECK_THROWS_WITH(c.set("lds.bankz", "32", "--lds.bankz"),
                      "--lds.bankz: unknown key 'lds.bankz' (dcusim run --help lists them)");
    CHECK_THROWS_WITH(c.set("lds.banks", "0", "--lds.banks"), "--lds.banks: key 'lds.banks': must be at least 1, not 0");
    CHECK_THROWS_WITH(c.set("cu.wave_size", "48", "--cu.wave_size"),
                      "--cu.wave_size: key 'cu.wave_size': must be one of 32, 64, not 48");
    CHECK_THROWS_WITH(c.set("lds.size_bytes", "lots", "x.ini:3"),
                      "x.ini:3: key 'lds.size_bytes': 'lots' is not a size (N, NK, NM or NG)");
    CHECK_THROWS_WITH(c.set("lds.banks", "16K", "--lds.banks"),
                      "--lds.banks: key 'lds.banks': '16K' is not a whole number");
    CHECK_THROWS_WITH(c.set("const.divergent", "scalar", "--const.divergent"),
                      "--const.divergent: key 'const.divergent': must be one of serialize, vector, not 'scalar'");
    CHECK_THROWS_WITH(c.set("cu.clock_mhz", "fast", "--cu.clock_mhz"),
                      "--cu.clock_mhz: key 'cu.clock_mhz': 'fast' is not a positive number");
    c.set("lds.banks", "64", "--lds.banks");
    CHECK(c.u("lds.banks") == 64);
}

TEST_CASE("preset files report FILE:LINE", "[config][bad-input]") {
    auto p = test::write_temp("bad.ini", "[lds]\nbanks = 32\nbogus = 1\n");
    Config c;
    CHECK_THROWS_WITH(c.load_file(p), p + ":3: unknown key 'lds.bogus' (dcusim run --help lists them)");
    auto q = test::write_temp("bad2.ini", "[lds]\nbanks 32\n");
    CHECK_THROWS_WITH(c.load_file(q), q + ":2: expected 'key = value'");
    CHECK_THROWS_WITH(c.load_file("/nonexistent/x.ini"), "/nonexistent/x.ini: cannot open preset file");
}

TEST_CASE("inconsistent presets are refused, naming where the value was set", "[config][bad-input]") {
    Config c;
    c.set("const.line_bytes", "48", "--const.line_bytes");
    CHECK_THROWS_WITH(preset_registry::load(c), "--const.line_bytes: key 'const.line_bytes': must be a power of two");
    auto p = test::write_temp("size.ini", "[l2]\nchannels = 16\nsize_bytes = 3000K\n");
    Config f;
    f.load_file(p);
    CHECK_THROWS_WITH(preset_registry::load(f), p + ":3: key 'l2.size_bytes': must be a multiple of the channels x line x associativity "
                                     "(16 x 128 x 16 = 32K); nearest: 2976K or 3008K");
    // The H200's 96 slices: 1M is no whole number of sets; the sizes around it are 5 and 6 x 192K.
    Config h;
    h.load_file(DCUSIM_SOURCE_DIR "/configs/h200.ini");
    h.set("l2.size_bytes", "1M", "--l2.size_bytes");
    CHECK_THROWS_WITH(preset_registry::load(h), "--l2.size_bytes: key 'l2.size_bytes': must be a multiple of the channels x line x "
                                      "associativity (96 x 128 x 16 = 192K); nearest: 960K or 1152K");
    // Below one unit only the unit itself is offered.
    Config l;
    l.set("l1.size_bytes", "200", "--l1.size_bytes");
    CHECK_THROWS_WITH(preset_registry::load(l), "--l1.size_bytes: key 'l1.size_bytes': must be a multiple of line x associativity "
                                      "(64 x 4 = 256); nearest: 256");
}

TEST_CASE("configs/dcu-z100.ini holds exactly the built-in defaults", "[config]") {
    Config file, defaults;
    file.load_file(DCUSIM_SOURCE_DIR "/configs/dcu-z100.ini");
    CHECK(file.values() == defaults.values());
}

TEST_CASE("configs/h200.ini loads: wave32, 32 banks of 4 bytes, serialising constant cache", "[config]") {
    Config c;
    c.load_file(DCUSIM_SOURCE_DIR "/configs/h200.ini");
    Preset p = preset_registry::load(c);
    CHECK(p.cu.wave_size == 32);
    CHECK(p.cus == 132);
    CHECK(p.lds.geometry.banks == 32);
    CHECK(p.lds.geometry.bank_bytes == 4);
    CHECK(p.constant.divergent == ConstDivergence::Serialize);
}

TEST_CASE("every number has a range that holds its default", "[config]") {
    for (const auto& d : preset_registry::keys()) {
        if (d.type == ParamType::Choice) continue;
        INFO(d.key);
        CHECK(d.max > 0);
        CHECK(d.min <= d.max);
        Config c;
        CHECK_NOTHROW(c.set(d.key, d.def, "default"));
    }
}

TEST_CASE("values outside their range are refused at once (issue 22)", "[config][bad-input]") {
    Config c;
    // A clock of 1e-300 MHz divided by zero, 1e-10 hung; 2^31 SIMDs grew to 6.9 GB.
    CHECK_THROWS_WITH(c.set("cu.clock_mhz", "1e-300", "--cu.clock_mhz"), "--cu.clock_mhz: key 'cu.clock_mhz': must be at least 1, not 1e-300");
    CHECK_THROWS_WITH(c.set("dram.clock_mhz", "2e6", "x.ini:2"),
                      "x.ini:2: key 'dram.clock_mhz': must be at most 1000000 (a period of 1 ps), not 2e6");
    CHECK_THROWS_WITH(c.set("cu.simds", "2147483648", "--cu.simds"),
                      "--cu.simds: key 'cu.simds': must be at most 64 (GPUs have 1 to 4), not 2147483648");
    CHECK_THROWS_WITH(c.set("cu.dispatch_cycles", "1e300", "--cu.dispatch_cycles"),
                      "--cu.dispatch_cycles: key 'cu.dispatch_cycles': must be at most 100000, not 1e300");
    CHECK_THROWS_WITH(c.set("lds.size_bytes", "2G", "--lds.size_bytes"), "--lds.size_bytes: key 'lds.size_bytes': must be at most 1G, not 2G");
    CHECK_THROWS_WITH(c.set("lds.carveouts", "0,8K,4G", "--lds.carveouts"),
                      "--lds.carveouts: key 'lds.carveouts': must be at most 1G, not 4G");
    CHECK_THROWS_WITH(c.set("noc.load_bytes_per_cycle", "1e-9", "--noc.load_bytes_per_cycle"),
                      "--noc.load_bytes_per_cycle: key 'noc.load_bytes_per_cycle': must be 0 or between 0.0009765625 and 1000000 "
                      "(kept in 1/1024 cycles), not 1e-9");
    CHECK_NOTHROW(c.set("noc.load_bytes_per_cycle", "0", "--noc.load_bytes_per_cycle"));
}

TEST_CASE("a tRCD past the refresh window is refused (it never finished)", "[config][bad-input]") {
    Config c;
    c.set("dram.tRCD", "4000", "--dram.tRCD");
    // tRP 14 + tRFC 220 + (tRCD 4000 + tCL 17 + tBURST 2) = 4253 > tREFI 3900
    CHECK_THROWS_WITH(preset_registry::load(c), "--dram.tRCD: key 'dram.tRCD': dram.tREFI must be 0 (no refresh) or more than tRP + tRFC + one "
                                      "access (4253): a refresh must leave time for an access");
}

TEST_CASE("a preset file is a small regular file with each key once", "[config][bad-input]") {
    Config c;
    auto p = test::write_temp("twice.ini", "[lds]\nbanks = 32\n\n[cu]\nsimds = 4\n[lds]\nbanks = 64\n");
    CHECK_THROWS_WITH(c.load_file(p), p + ":7: key 'lds.banks' is set twice, first at line 2");
    CHECK_THROWS_WITH(c.load_file(DCUSIM_SOURCE_DIR "/configs"), DCUSIM_SOURCE_DIR "/configs: is a folder, not a preset file");
    CHECK_THROWS_WITH(c.load_file("/dev/zero"), "/dev/zero: larger than 1 MiB: not a preset file");
    auto z = test::write_temp("nul.ini", std::string("[lds]\nbanks = 3\0002\n", 18));
    CHECK_THROWS_WITH(c.load_file(z), z + ":2: a NUL byte: not a preset file");
}

TEST_CASE("the defaults a preset loads are the units' own initialisers", "[config]") {
    // One default per key (models/common/params.h): the structs once disagreed with the key list.
    const Preset p = preset_registry::load(Config());
    CHECK(p.l1.hit_latency == L1Params{}.hit_latency);
    CHECK(p.l1.mshrs == L1Params{}.mshrs);
    CHECK(p.l2.hit_latency == L2Params{}.hit_latency);
    CHECK(p.l2.atomic_latency == L2Params{}.atomic_latency);
    CHECK(p.l2.writeback_buffers == L2Params{}.writeback_buffers);
    CHECK(p.l2.geometry.size_bytes == L2Params{}.geometry.size_bytes);
    CHECK(p.noc.latency == NocParams{}.latency);
    CHECK(p.dram.latency_cycles == DramParams{}.latency_cycles);
    CHECK(p.dram.t.REFI == DramTiming{}.REFI);
    CHECK(p.cus == Preset{}.cus);
    CHECK(p.launch.carveouts == Preset{}.launch.carveouts);
    CHECK(p.memory_limit_bytes == Preset{}.memory_limit_bytes);
}

TEST_CASE("the keys are gathered once each, the platform's among the units'", "[config]") {
    const auto& defs = preset_registry::keys();
    std::vector<std::string> keys;
    for (const auto& d : defs) keys.push_back(d.key);
    CHECK(keys.front() == "cu.count");
    CHECK(keys.back() == "sim.stall_seconds");
    auto pos = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
    CHECK(pos("cu.dispatch_cycles") == pos("cu.mid_issue_cycles") + 1);
    CHECK(pos("mem.model") == pos("mem.latency") - 1);
    CHECK(pos("l2.channels") == pos("l1.global_write_allocate") + 1);
    CHECK(pos("noc.latency") == pos("l2.dirty_at_launch_bytes") + 1);
    std::sort(keys.begin(), keys.end());
    CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
}

TEST_CASE("a choice loads as its field's value", "[config]") {
    Config c;
    c.set("cu.wait_stores", "off", "--cu.wait_stores");
    c.set("mem.model", "fixed", "--mem.model");
    c.set("l2.partial_writes", "fetch", "--l2.partial_writes");
    c.set("sample.mode", "auto", "--sample.mode");
    const Preset p = preset_registry::load(c);
    CHECK_FALSE(p.cu.wait_stores);
    CHECK(p.fixed_memory);
    CHECK(p.l2.partial_fetch);
    CHECK(p.sample.on);
    CHECK(p.constant.divergent == ConstDivergence::Vector);
}
