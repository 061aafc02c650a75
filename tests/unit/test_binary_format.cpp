// Binary format: lossless round trip with text, chunking, and the errors for
// bad magic, version, checksum and truncation.
#include <catch2/catch.hpp>
#include <zstd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "helpers.h"
#include "traces/format/binary_format.h"
#include "traces/format/binary_reader.h"
#include "traces/format/binary_writer.h"
#include "traces/format/sink.h"
#include "traces/format/source.h"

using namespace dcusim::trace;
using dcusim::test::read_all;
using dcusim::test::write_temp;

namespace {
std::string to_binary_file(const std::vector<Record>& recs) {
    std::string path = write_temp("b.dctrace", "");
    std::ofstream f(path, std::ios::binary);
    BinaryWriter w(f);
    for (const auto& r : recs) w.write(r);
    w.finish();
    return path;
}
std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}
std::string error_of(const std::string& path) {
    try {
        read_all(path);
    } catch (const TraceError& e) {
        return e.what();
    }
    return "no error";
}
// A trace with every statement form and a few thousand random list addresses.
std::string sample_text(unsigned waves) {
    std::mt19937_64 rng(7);
    std::ostringstream o;
    o << "dcusim-trace 1\nwave_size 32\nkernel big grid " << waves << " 1 1 block 32 1 1 lds 1024 vgprs 40 sgprs 12\n";
    o << "pc 0x10 readonly\npc 0x18 line kernel.hip:42\npc 0x20 readonly line kernel.hip:43\npc 0x28 atomic float line kernel.hip:44\n"
         "pc 0x2c atomic int\n";
    for (unsigned b = 0; b < waves; ++b) {
        o << "wave " << b << " 0\n";
        o << "ld global 4 0x10 all affine 0x" << std::hex << (0x100000 + b * 128) << std::dec << " 0x4\n";
        o << "ld const 4 0x18 0x5 list";
        for (int i = 0; i < 2; ++i) o << " 0x" << std::hex << (rng() >> 20) << std::dec;
        o << "\nst lds 16 0x20 all affine 0x400 -0x10\natom local 8 0x28 0x80000001 list 0x10 0x8\n";
        o << "compute 7\nbar 0x30\nwait\nwait 0x38\ncompute 9 long 2\ncompute 5 mid 3\ncompute 6 long 1 mid 2\ncompute 8 lds 3\ncompute 9 long 1 mid 2 lds 4\n";
        o << "compute 12 stall 20\ncompute 9 long 1 lds 2 stall 31\nwait keep 2\nwait 0x40 keep 1\n";
        // After records that set more fields: a shorter compute, a plain wait, an access after a wait's PC.
        o << "compute 3\nwait\nwait 0x44\nld global 4 0x10 all affine 0x0 0x4\n";
    }
    o << "end\ncopy h2d 4096 pinned stream 1 async\nhost 2500\nmap 0x7f0000000000 65536\n";
    o << "kernel second grid 1 1 1 block 1 1 1 stream 2 carveout 100\nend\nkernel third grid 1 1 1 block 1 1 1 carveout 0\nend\n";
    o << "copy d2h 1 pageable\ncopy d2d 8 device stream 3\ncopy h2d 7 wc async\ncopy d2h 9 mapped stream 65535\nsync stream 3\nsync\n";
    return o.str();
}
}  // namespace

TEST_CASE("text -> binary -> text is lossless", "[binary]") {
    std::string text = sample_text(50);
    auto recs = read_all(write_temp("a.trace", text));
    auto bin = to_binary_file(recs);
    auto back = read_all(bin);
    REQUIRE(back.size() == recs.size());
    CHECK(back == recs);
    std::ostringstream o;
    TextWriter w(o);
    for (const auto& r : back) w.write(r);
    w.finish();
    CHECK(o.str() == text);
}

TEST_CASE("large traces span several chunks and stay lossless", "[binary]") {
    std::string text = sample_text(40000);
    auto recs = read_all(write_temp("big.trace", text));
    auto bin = to_binary_file(recs);
    CHECK(slurp(bin).size() < text.size() / 4);  // compact: affine and short deltas compress well
    CHECK(read_all(bin) == recs);
    std::string s = slurp(bin);
    // More than one data chunk: the end marker counts them.
    uint32_t chunks = uint8_t(s[s.size() - 12]) | uint8_t(s[s.size() - 11]) << 8;
    CHECK(chunks >= 2);
}

TEST_CASE("binary errors name the file and the chunk", "[binary][bad-input]") {
    auto recs = read_all(write_temp("a.trace", sample_text(20)));
    std::string good = slurp(to_binary_file(recs));

    std::string magic = good;
    magic[0] = 'X';
    magic[1] = '\x01';
    auto p1 = write_temp("magic.dctrace", magic);
    CHECK(error_of(p1) == p1 + ": bad magic: neither a binary trace ('DCUTRACE') nor a text trace ('dcusim-trace 1')");

    std::string version = good;
    version[8] = 9;
    auto p2 = write_temp("version.dctrace", version);
    CHECK(error_of(p2) == p2 + ": unsupported binary trace version 9 (this dcusim reads version 1)");

    std::string corrupt = good;
    corrupt[bin::kHeaderBytes + bin::kChunkHeaderBytes + 5] ^= 0x40;
    auto p3 = write_temp("sum.dctrace", corrupt);
    CHECK(error_of(p3) == p3 + ": chunk 1: checksum mismatch");

    auto p4 = write_temp("cut.dctrace", good.substr(0, good.size() - 40));
    CHECK(error_of(p4) == p4 + ": chunk 1: truncated chunk data");

    auto p5 = write_temp("noend.dctrace", good.substr(0, good.size() - bin::kChunkHeaderBytes));
    CHECK(error_of(p5) == p5 + ": chunk 2: truncated: the file ends without its end marker");

    auto p6 = write_temp("header.dctrace", good.substr(0, 10));
    CHECK(error_of(p6) == p6 + ": truncated file header");
}

namespace {
// A binary file whose one chunk holds `raw` as its records, with a valid
// checksum, so the record decoder itself sees the bytes.
std::string file_with_chunk(const std::string& raw, uint32_t records) {
    std::string f(bin::kMagic, 8);
    auto u32 = [&](uint32_t v) { for (int i = 0; i < 4; ++i) f += char(v >> (8 * i)); };
    auto u64 = [&](uint64_t v) { u32(uint32_t(v)); u32(uint32_t(v >> 32)); };
    u32(bin::kVersion);
    u32(0);
    std::string packed(ZSTD_compressBound(raw.size()), '\0');
    size_t n = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1);
    packed.resize(n);
    u32(bin::kChunkTag);
    u32(uint32_t(raw.size()));
    u32(uint32_t(n));
    u32(records);
    u64(bin::fnv1a64(packed.data(), n));
    f += packed;
    u32(bin::kEndTag);
    u32(0);
    u32(0);
    u32(1);
    u64(records);
    return f;
}
}  // namespace

TEST_CASE("garbage records with valid checksums are errors, never crashes", "[binary][bad-input]") {
    // The records of a small valid trace, as the writer encodes them.
    auto recs = read_all(write_temp("a.trace", sample_text(3)));
    std::string good = slurp(to_binary_file(recs));
    std::string packed = good.substr(bin::kHeaderBytes + bin::kChunkHeaderBytes);
    uint32_t packed_size = uint8_t(good[bin::kHeaderBytes + 8]) | uint8_t(good[bin::kHeaderBytes + 9]) << 8;
    packed.resize(packed_size);
    std::string raw(ZSTD_getFrameContentSize(packed.data(), packed.size()), '\0');
    ZSTD_decompress(raw.data(), raw.size(), packed.data(), packed.size());

    std::mt19937_64 rng(42);
    int errors = 0, ok = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string r = raw;
        if (i % 3 == 0) {
            for (auto& c : r) c = char(rng());  // pure noise
        } else {
            for (int k = 0; k < 1 + i % 7; ++k) r[rng() % r.size()] = char(rng());  // a few flipped bytes
        }
        auto p = write_temp("fuzz.dctrace", file_with_chunk(r, uint32_t(recs.size())));
        try {
            read_all(p);
            ++ok;
        } catch (const TraceError&) {
            ++errors;
        }
        std::remove(p.c_str());
    }
    CHECK(errors > 2000);  // almost every mutation is caught
    CHECK(errors + ok == 3000);
}

TEST_CASE("binary host records with bad flags are errors naming the chunk", "[binary][bad-input]") {
    // wave_size 64, then one host record: its raw bytes, as the writer lays them out.
    auto with = [](std::string rec) { return write_temp("host_flags.dctrace", file_with_chunk(std::string("\x00\x40", 2) + rec, 2)); };
    const auto good = read_all(with(std::string{char(bin::TCopy), char(0x01 | 0x01 << 2), 0x05}));  // d2h 5 bytes pinned
    REQUIRE(good.size() == 2);
    CHECK(good[1].host.dir == CopyDir::D2H);
    CHECK(good[1].host.bytes == 5);
    const std::string p1 = with(std::string{char(bin::TCopy), char(7 << 2), 0x01});  // host memory 7: there are 5 kinds
    CHECK(error_of(p1) == p1 + ": chunk 1: bad copy flags");
    const std::string p2 = with(std::string{char(bin::TCopy), char(0x03), 0x01});  // direction 3
    CHECK(error_of(p2) == p2 + ": chunk 1: bad copy flags");
    const std::string p3 = with(std::string{char(bin::TSync), 0x02});
    CHECK(error_of(p3) == p3 + ": chunk 1: bad sync flags");
    // The stream's rules are TraceStream's, alike for both formats.
    const std::string p4 = with(std::string{char(bin::TCopy), char(0x01 << 2 | 0x40), 0x01, char(0x80), char(0x80), 0x04});
    CHECK(error_of(p4) == p4 + ": chunk 1: stream 65536 too large (at most 65535)");
}

TEST_CASE("binary varints carry 64 bits in ten bytes, not more, and not past their chunk", "[binary][bad-input]") {
    // A wave_size record's number: nine bytes of 7 bits and a tenth of 1 (2^64 - 1, decoded; TraceStream
    // would refuse it), then a tenth byte of 2 (a 65th bit), then a number cut off by its chunk's end.
    const std::string ones(9, char(0xff));
    BinaryReader rd(write_temp("varint_max.dctrace", file_with_chunk(char(bin::TWaveSize) + ones + char(0x01), 1)));
    Record r;
    REQUIRE(rd.next(r));
    CHECK(r.wave_size == ~uint64_t(0));
    const std::string over = write_temp("varint_over.dctrace", file_with_chunk(char(bin::TWaveSize) + ones + char(0x02), 1));
    CHECK(error_of(over) == over + ": chunk 1: varint past 64 bits");
    const std::string cut = write_temp("varint_cut.dctrace", file_with_chunk(std::string{char(bin::TWaveSize), char(0xff), char(0xff)}, 1));
    CHECK(error_of(cut) == cut + ": chunk 1: record runs past the end of its chunk");
}

TEST_CASE("a record read into a used one equals one read into a fresh one", "[binary]") {
    // The reader keeps a record's buffers from one record to the next (no allocation per list), and
    // a wave's instructions set only their own kind's fields: no address list, kernel, PC flag or
    // host statement of the one before may show. sample_text has lists after affine accesses and
    // the reverse, waits with and without a PC, shorter computes and waits after longer ones, and a
    // kernel without the attributes of the one before.
    auto recs = read_all(write_temp("a.trace", sample_text(30)));
    auto bin = to_binary_file(recs);
    BinaryReader used(bin), fresh(bin);
    Record r;
    size_t n = 0;
    for (;; ++n) {
        Record f;
        const bool more = fresh.next(f);
        REQUIRE(used.next(r) == more);
        if (!more) break;
        REQUIRE(r == f);
        CHECK(r.mem.addrs == f.mem.addrs);  // == compares lists only for list records
        CHECK(r.kernel == f.kernel);
        CHECK(r.has_pc == f.has_pc);
        CHECK(r.host == f.host);  // host statements: a copy's stream only when it names one
    }
    CHECK(n == recs.size());
}
