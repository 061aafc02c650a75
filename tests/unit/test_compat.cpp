// Traces written by earlier versions keep reading: tests/data/compat/ holds one
// small file of each format version there is (text 1, binary 1), and each must
// read to exactly the records below, worked out from the files by hand.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "traces/format/sink.h"
#include "traces/format/source.h"

using namespace dcusim::trace;

using dcusim::test::read_all;

namespace {
const std::string dir = std::string(DCUSIM_SOURCE_DIR) + "/tests/data/compat/";


// The statements of v1.trace in canonical text (hex numbers, signed strides).
const std::vector<std::string> expected = {
    "wave_size 32",
    "kernel first grid 2 1 1 block 48 1 1 lds 1024 vgprs 24 sgprs 16 scratch 64",
    "pc 0x10 readonly line a.cu:7",
    "pc 0x18 readonly",
    "wave 0 0",
    "ld global 4 0x10 all affine 0x1000 0x4",
    "st lds 8 0x18 0xff list 0x0 0x8 0x10 0x18 0x20 0x28 0x30 0x38",
    "atom global 16 0x20 0x1 affine 0x2000 0x0",
    "ld const 1 0x28 all affine 0x300 0x0",
    "st local 2 0x30 0x3 affine 0x40 -0x2",
    "bar 0x38",
    "wait",
    "wait 0x40",
    "compute 7",
    "compute 9 long 2",
    "compute 12 long 3 mid 4",
    "wave 0 1",
    "ld global 4 0x10 all affine 0x1100 0x4",
    "end",
    "kernel second grid 1 1 1 block 32 1 1",
    "wave 0 0",
    "compute 1",
    "end",
};

void check_records(const std::vector<Record>& got) {
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(format_record(got[i]) == expected[i]);
    // `all` resolved: wave 0 of a 48-thread block has 32 lanes, wave 1 the other 16.
    CHECK(got[5].mem.mask == 0xffffffffull);
    CHECK(got[17].mem.mask == 0xffffull);
    CHECK(got[1].kernel.present == (KernelInfo::HasLds | KernelInfo::HasVgprs | KernelInfo::HasSgprs | KernelInfo::HasScratch));
    CHECK(got[9].mem.stride == -2);
    CHECK(got[7].mem.bytes == 16);
}
}  // namespace

TEST_CASE("text trace version 1 reads to its records", "[compat][text]") { check_records(read_all(dir + "v1.trace")); }

TEST_CASE("binary trace version 1 reads to the same records", "[compat][binary]") {
    const auto bin = read_all(dir + "v1.dctrace");
    check_records(bin);
    CHECK(bin == read_all(dir + "v1.trace"));
}
