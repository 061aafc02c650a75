// Preset keys: sizes, checks that name the key, and the shipped presets.
#include <catch2/catch.hpp>

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
    CHECK_THROWS_WITH(make_preset(c), "--const.line_bytes: key 'const.line_bytes': must be a power of two");
    auto p = test::write_temp("size.ini", "[l2]\nchannels = 16\nsize_bytes = 3000K\n");
    Config f;
    f.load_file(p);
    CHECK_THROWS_WITH(make_preset(f), p + ":3: key 'l2.size_bytes': must be a multiple of the channels x line x associativity "
                                     "(16 x 128 x 16 = 32K); nearest: 2976K or 3008K");
    // The H200's 96 slices: 1M is no whole number of sets; the sizes around it are 5 and 6 x 192K.
    Config h;
    h.load_file(DCUSIM_SOURCE_DIR "/configs/h200.ini");
    h.set("l2.size_bytes", "1M", "--l2.size_bytes");
    CHECK_THROWS_WITH(make_preset(h), "--l2.size_bytes: key 'l2.size_bytes': must be a multiple of the channels x line x "
                                      "associativity (96 x 128 x 16 = 192K); nearest: 960K or 1152K");
    // Below one unit only the unit itself is offered.
    Config l;
    l.set("l1.size_bytes", "200", "--l1.size_bytes");
    CHECK_THROWS_WITH(make_preset(l), "--l1.size_bytes: key 'l1.size_bytes': must be a multiple of line x associativity "
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
    Preset p = make_preset(c);
    CHECK(p.cu.wave_size == 32);
    CHECK(p.cus == 132);
    CHECK(p.lds.geometry.banks == 32);
    CHECK(p.lds.geometry.bank_bytes == 4);
    CHECK(p.constant.divergent == ConstDivergence::Serialize);
}
