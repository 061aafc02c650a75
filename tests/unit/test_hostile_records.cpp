// Hostile trace values (issue 22): each input a user found, in text and in
// binary, is refused with one line naming the place, the same in both formats.
#include <catch2/catch.hpp>

#include <climits>
#include <sstream>

#include "models/cu/occupancy.h"
#include "models/l1/coalescer.h"
#include "traces/format/binary_format.h"
#include "traces/format/binary_reader.h"
#include "traces/format/binary_writer.h"
#include "traces/format/sink.h"
#include "traces/format/source.h"
#include "traces/format/text_reader.h"

using namespace dcusim;
using namespace dcusim::trace;

namespace {
std::string read_error(std::unique_ptr<RecordSource> src) {
    try {
        TraceStream s(std::move(src));
        Record r;
        while (s.next(r)) {}
    } catch (const TraceError& e) {
        return e.what();
    }
    return "no error";
}
std::string text_error(const std::string& text) {
    return read_error(std::make_unique<TextReader>(std::make_unique<std::istringstream>(text), "t.trace"));
}
std::string binary_bytes(const std::vector<Record>& recs) {
    std::ostringstream o;
    BinaryWriter w(o);
    for (const auto& r : recs) w.write(r);
    w.finish();
    return o.str();
}
std::string bytes_error(const std::string& bytes) {
    return read_error(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(bytes), "b.dctrace"));
}
// Text trace -> records as read without checks -> binary: the same values in both formats.
std::vector<Record> raw_records(const std::string& text) {
    TextReader t(std::make_unique<std::istringstream>(text), "t.trace");
    std::vector<Record> out;
    Record r;
    while (t.next(r)) out.push_back(r);
    return out;
}
std::string binary_error(const std::string& text) { return bytes_error(binary_bytes(raw_records(text))); }

const std::string head = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
const std::string top = "the 64-bit address space less its top 4 GiB (18446744069414584320 bytes)";
}  // namespace

TEST_CASE("addresses in the last line of the 64-bit space are refused in both formats", "[hostile][text][binary]") {
    // 2^64 - 64: the last 64-byte line; the coalescer wrapped to line 0 and looped.
    const std::string list = head + "ld global 4 0 0x1 list 0xffffffffffffffc0\nend\n";
    CHECK(text_error(list) == "t.trace:5: global access of 4 bytes at 18446744073709551552 leaves " + top);
    CHECK(binary_error(list) == "b.dctrace: chunk 1: global access of 4 bytes at 18446744073709551552 leaves " + top);
    const std::string uniform = head + "st global 4 0 all affine 0xfffffffffffffffc 0\nend\n";
    CHECK(text_error(uniform) == "t.trace:5: global access of 4 bytes at 18446744073709551612 leaves " + top);
    CHECK(binary_error(uniform) == "b.dctrace: chunk 1: global access of 4 bytes at 18446744073709551612 leaves " + top);
    // The first byte refused is 2^64 - 2^32; the byte before it is the last one allowed.
    CHECK(text_error(head + "ld global 4 0 0x1 list 0xfffffffefffffffc\nend\n") == "no error");
    CHECK(text_error(head + "ld global 4 0 0x1 list 0xfffffffefffffffd\nend\n") ==
          "t.trace:5: global access of 4 bytes at 18446744069414584317 leaves " + top);
    CHECK(text_error(head + "ld lds 4 0 0x1 list 0xfffffffc\nend\n") == "no error");
    CHECK(text_error(head + "ld lds 4 0 0x1 list 0xfffffffd\nend\n") ==
          "t.trace:5: lds access of 4 bytes at 4294967293 leaves the 4 GiB window of LDS and local offsets (4294967296 bytes)");
    CHECK(binary_error(head + "ld local 8 0 0x2 affine 0 0xffffffff\nend\n") ==
          "b.dctrace: chunk 1: local access of 8 bytes at 4294967295 leaves the 4 GiB window of LDS and local offsets (4294967296 bytes)");
}

TEST_CASE("the coalescer ends its walk in the last line of the address space", "[hostile][coalescer]") {
    // The readers refuse this address; the model must still not loop on it.
    trace::WaveTrace w;
    trace::Instr in;
    in.kind = RecKind::Mem;
    in.bytes = 16;
    in.mask = 0x3;
    in.base = ~uint64_t(0) - 7;  // lane 0: the last 8 bytes and (clamped) nothing past 2^64 - 1
    in.stride = 4;
    std::vector<LineAccess> out;
    coalesce(in, w, 64, 32, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].line == ~uint64_t(0) - 63);
    CHECK(out[0].sectors == 0x2);  // bytes 56..63 of the line: its second 32-byte sector
    in.stride = 64;                // lane 1 wraps to 0x38: its own line 0
    coalesce(in, w, 64, 32, out);
    REQUIRE(out.size() == 3);
    CHECK(out[1].line == 0);  // bytes 0x38..0x47: the second sector of line 0, the first of line 64
    CHECK(out[1].sectors == 0x2);
    CHECK(out[2].line == 64);
    CHECK(out[2].sectors == 0x1);
}

TEST_CASE("a stride of INT64_MIN is checked without negating it", "[hostile][text][binary]") {
    // Lanes 0 and 1: base and base - 2^63; with base 2^63 + 16 both are valid.
    const std::string ok = head + "ld global 4 0 0x3 affine 0x8000000000000010 -0x8000000000000000\nend\n";
    CHECK(text_error(ok) == "no error");
    CHECK(binary_error(ok) == "no error");
    const std::string low = head + "ld global 4 0 0x3 affine 0x10 -0x8000000000000000\nend\n";
    CHECK(text_error(low) == "t.trace:5: global access of 4 bytes at 16 (a lane below 0) leaves " + top);
    CHECK(binary_error(low) == "b.dctrace: chunk 1: global access of 4 bytes at 16 (a lane below 0) leaves " + top);
    MemAccess m;
    m.base = 0x8000000000000010ull;
    m.stride = INT64_MIN;
    CHECK(m.lane_addr_affine(1) == 0x10);
    CHECK(m.lane_addr_affine(2) == 0x8000000000000010ull);  // wraps, as the unsigned arithmetic says
}

TEST_CASE("kernel counts past their ranges are refused the same in text and binary", "[hostile][text][binary]") {
    const std::string k = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1";
    // 2^64 - 1 bytes of LDS rounded up to 0 and ran.
    const std::string lds = k + " lds 18446744073709551615\nend\n";
    CHECK(text_error(lds) == "t.trace:3: 'lds' 18446744073709551615 bytes too large (at most 4294967296)");
    CHECK(binary_error(lds) == "b.dctrace: chunk 1: 'lds' 18446744073709551615 bytes too large (at most 4294967296)");
    CHECK(text_error(k + " lds 4294967296\nend\n") == "no error");
    // The binary reader cut these to 32 bits: vgprs 2^40 read as 0, wave 2^40 as wave 0.
    const std::string vgprs = k + " vgprs 1099511627776\nend\n";
    CHECK(text_error(vgprs) == "t.trace:3: 'vgprs' too large (at most 4294967295)");
    CHECK(binary_error(vgprs) == "b.dctrace: chunk 1: 'vgprs' too large (at most 4294967295)");
    const std::string wave = k + "\nwave 0 1099511627776\nend\n";
    CHECK(text_error(wave) == "t.trace:4: wave 1099511627776 outside its block (1 waves of 64 lanes)");
    CHECK(binary_error(wave) == "b.dctrace: chunk 1: wave 1099511627776 outside its block (1 waves of 64 lanes)");
    const std::string dim = "dcusim-trace 1\nwave_size 64\nkernel k grid 4294967296 1 1 block 64 1 1\nend\n";
    CHECK(text_error(dim) == "t.trace:3: dimension '4294967296' must be 1 to 4294967295");
    CHECK(binary_error(dim) == "b.dctrace: chunk 1: dimension '4294967296' must be 1 to 4294967295");
    const std::string scratch = k + " scratch 16777217\nend\n";
    CHECK(binary_error(scratch) == "b.dctrace: chunk 1: 'scratch' 16777217 bytes per lane too large (at most 16777216)");
    const std::string wsize = "dcusim-trace 1\nwave_size 4294967360\n";  // 2^32 + 64 was 64 in 32 bits
    CHECK(text_error(wsize) == "t.trace:2: wave_size must be 32 or 64, not 4294967360");
    CHECK(binary_error(wsize) == "b.dctrace: chunk 1: wave_size must be 32 or 64, not 4294967360");
    const std::string carve = k + " carveout 101\nend\n";
    CHECK(text_error(carve) == "t.trace:3: 'carveout' 101 percent (0 to 100)");
    CHECK(binary_error(carve) == "b.dctrace: chunk 1: 'carveout' 101 percent (0 to 100)");
    CHECK(text_error(k + " carveout 100\nend\n") == "no error");
    const std::string grid = "dcusim-trace 1\nwave_size 64\nkernel k grid 4294967295 4294967295 2 block 64 1 1\nend\n";
    CHECK(text_error(grid) == "t.trace:3: grid too large");
}

TEST_CASE("occupancy refuses 2^64 - 1 bytes of LDS instead of rounding it to 0", "[hostile][occupancy]") {
    KernelInfo k;
    k.name = "k";
    k.block = {64, 1, 1};
    k.lds_bytes = ~uint64_t(0);
    CHECK_THROWS_WITH(compute_occupancy(CuParams{}, 65536, 512, k),
                      "kernel 'k': workgroup needs 18446744073709551615 bytes of LDS, the preset has 65536 (lds.size_bytes)");
}

TEST_CASE("kernel names a text trace cannot hold are refused on read and on write", "[hostile][text][binary]") {
    Record k;
    k.kind = RecKind::Kernel;
    k.kernel.name = "two\nlines";
    Record ws;
    ws.kind = RecKind::WaveSize;
    ws.wave_size = 64;
    std::ostringstream text;
    TextWriter tw(text);
    CHECK_THROWS_WITH(tw.write(k), "cannot write kernel name 'two\nlines': not printable ASCII without spaces or '#'");
    std::ostringstream bin;
    BinaryWriter bw(bin);
    CHECK_THROWS_AS(bw.write(k), TraceError);
    // A binary trace written before this check holds such a name: sealed here from raw record bytes.
    const std::string msg = "kernel name must be printable ASCII without spaces or '#'";
    for (const std::string name : {"a b", "a#b", "a\tb", "a\x7f", "a\nb", "\xc3\xa9"}) {
        std::vector<uint8_t> raw = {bin::TWaveSize, 64, bin::TKernel, uint8_t(name.size())};
        raw.insert(raw.end(), name.begin(), name.end());
        raw.insert(raw.end(), {1, 1, 1, 64, 1, 1, 0, bin::TEnd});
        CHECK(bytes_error(BinaryWriter::seal(raw, 3)) == "b.dctrace: chunk 1: " + msg);
    }
    CHECK(text_error("dcusim-trace 1\nwave_size 64\nkernel a\x01z grid 1 1 1 block 64 1 1\nend\n") == "t.trace:3: " + msg);
    CHECK(text_error("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\npc 0x10 line a\x02:3\nend\n") ==
          "t.trace:4: pc source line must be printable ASCII without spaces or '#'");
}

TEST_CASE("a pc declaration with neither attribute round-trips through text", "[hostile][text][binary]") {
    // Binary tag 7 with attributes 0 dumped to 'pc 0x10', which the text reader refused.
    const std::vector<uint8_t> raw = {bin::TWaveSize, 64, bin::TKernel, 1, 'k', 1, 1, 1, 64, 1, 1, 0, bin::TPcInfo, 0x10, 0, bin::TEnd};
    CHECK(bytes_error(BinaryWriter::seal(raw, 4)) == "no error");
    std::ostringstream text;
    TextWriter tw(text);
    for (const Record& r : raw_records("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\npc 0x10\nend\n")) tw.write(r);
    tw.finish();
    CHECK(text.str() == "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\npc 0x10\nend\n");
    CHECK(text_error(text.str()) == "no error");
}

TEST_CASE("an atomic's kind is one of int and float, in both formats", "[hostile][text][binary]") {
    const std::string k = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\n";
    CHECK(text_error(k + "pc 0x10 atomic int\nend\n") == "no error");
    CHECK(text_error(k + "pc 0x10 readonly atomic float line k.hip:3\nend\n") == "no error");
    CHECK(text_error(k + "pc 0x10 atomic int atomic float\nend\n") == "t.trace:4: pc attribute 'atomic' given twice");
    CHECK(text_error(k + "pc 0x10 atomic double\nend\n") ==
          "t.trace:4: unknown pc attribute 'atomic' (readonly, atomic int|float, line FILE:LINE)");
    CHECK(text_error(k + "pc 0x10 atomic\nend\n") ==
          "t.trace:4: unknown pc attribute 'atomic' (readonly, atomic int|float, line FILE:LINE)");
    // A PC declared again may add attributes, but not make its atomic the other kind; another kernel may.
    CHECK(text_error(k + "pc 0x10 atomic int\npc 0x10 readonly atomic int\nend\n") == "no error");
    CHECK(text_error(k + "pc 0x10 atomic int\npc 0x10 atomic float\nend\n") ==
          "t.trace:5: pc 0x10 declared both atomic int and atomic float");
    CHECK(text_error(k + "pc 0x10 atomic int\nend\n" + k.substr(k.find("kernel")) + "pc 0x10 atomic float\nend\n") == "no error");
    // Binary attribute bits: 4 int, 8 float; both, or a bit past them, is refused.
    auto pc_with = [](uint8_t flags) {
        const std::vector<uint8_t> raw = {bin::TWaveSize, 64, bin::TKernel, 1, 'k', 1, 1, 1, 64, 1, 1, 0, bin::TPcInfo, 0x10, flags, bin::TEnd};
        return bytes_error(BinaryWriter::seal(raw, 4));
    };
    CHECK(pc_with(4) == "no error");
    CHECK(pc_with(8) == "no error");
    CHECK(pc_with(12) == "b.dctrace: chunk 1: bad pc attribute flags");
    CHECK(pc_with(16) == "b.dctrace: chunk 1: bad pc attribute flags");
    // A writer refuses a record that no reader would take.
    Record r;
    r.kind = RecKind::PcInfo;
    r.pc_flags = PcAtomicInt | PcAtomicFloat;
    CHECK_THROWS_WITH(check_writable(r), "cannot write pc attributes: unknown, or an atomic both int and float");
}

TEST_CASE("an affine access's lanes are checked in 64 bits only where the 128-bit rule agrees", "[hostile][binary]") {
    // affine_lanes_fit takes bases below 2^62 and strides within 2^32 either way in 64-bit arithmetic.
    const uint64_t bases[] = {0, 16, (1ull << 32) - 4, 1ull << 32, (1ull << 62) - 1, 1ull << 62, kAddressEnd - 4, kAddressEnd, ~0ull};
    const int64_t strides[] = {0, 1, -1, 4, -4, (1ll << 32) - 1, 1ll << 32, (1ll << 32) + 1, -(1ll << 32), -(1ll << 32) - 1,
                               INT64_MIN, INT64_MAX};
    const uint64_t masks[] = {1, 3, 1ull << 63, 0x8000000000000001ull, ~0ull, 0xffffffffull};
    for (Space s : {Space::Global, Space::Lds})
        for (uint8_t bytes : {uint8_t(1), uint8_t(16)})
            for (uint64_t base : bases)
                for (int64_t stride : strides)
                    for (uint64_t mask : masks) {
                        __int128 lo, hi;
                        affine_lane_range(mask, base, stride, lo, hi);
                        const bool expected = lo >= 0 && hi + bytes <= (__int128)address_end(s);
                        INFO("base " << base << " stride " << stride << " mask " << mask << " bytes " << int(bytes));
                        CHECK(affine_lanes_fit(s, bytes, mask, base, stride) == expected);
                    }
}
