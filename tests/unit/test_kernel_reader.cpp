// The kernel reader's two steps (traces/replay/kernel_reader.h): a workgroup read but not taken
// (one the sampler skips) is still checked, and the next one comes out as a full read gives it. A
// binary trace's waves, decoded straight into their lists, equal its text's.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>

#include "helpers.h"
#include "traces/format/binary_writer.h"
#include "traces/replay/kernel_reader.h"

using namespace dcusim::trace;
using dcusim::test::write_temp;

namespace {
// Three workgroups of 64 threads as two wave32s each; block b loads at 0x1000 + 0x100 b.
std::string three_blocks(const std::string& bad_line_in_block_1 = "") {
    std::string t = "dcusim-trace 1\nwave_size 32\nkernel k grid 3 1 1 block 64 1 1\n";
    for (int b = 0; b < 3; ++b)
        for (int w = 0; w < 2; ++w) {
            char line[160];
            std::snprintf(line, sizeof line, "wave %d %d\ncompute %d\nld global 4 0x10 all affine 0x%x 4\nwait\n", b, w, 3 + b,
                          0x1000 + 0x100 * b + 0x80 * w);
            t += line;
            if (b == 1 && w == 1) t += bad_line_in_block_1;
        }
    return t + "end\n";
}
KernelReader reader_of(const std::string& text, uint32_t target) {
    return KernelReader(std::make_unique<TraceStream>(write_temp("kr.trace", text)), target);
}
}  // namespace

TEST_CASE("kernel reader: a workgroup read and not taken is dropped and the next is as a full read gives it", "[replay]") {
    KernelReader two = reader_of(three_blocks(), 64), one = reader_of(three_blocks(), 64);
    REQUIRE(two.next_kernel());
    REQUIRE(one.next_kernel());
    WorkgroupTrace full;
    REQUIRE(one.next_workgroup(full));  // block 0
    REQUIRE(two.read_workgroup());      // block 0, at the capture's wave size: 2 waves of 3 instructions
    REQUIRE(two.read_waves().size() == 2);
    CHECK(two.read_waves()[1].instrs.size() == 3);
    CHECK(two.read_waves()[1].instrs[1].base == 0x1080);
    REQUIRE(two.read_workgroup());  // block 1 replaces it, in the same buffers
    CHECK(two.read_waves()[0].instrs[1].base == 0x1100);
    WorkgroupTrace taken;
    two.take_workgroup(taken);
    REQUIRE(one.next_workgroup(full));  // block 1 the usual way
    CHECK(taken.block == 1);
    CHECK(full.block == 1);
    REQUIRE(taken.waves.size() == 1);  // regrouped to one wave64: compute 4, one 64-lane load, wait
    REQUIRE(taken.waves[0].instrs.size() == full.waves[0].instrs.size());
    CHECK(taken.waves[0].instrs.size() == 3);
    CHECK(taken.waves[0].instrs[1].mask == ~0ull);
    CHECK(taken.waves[0].instrs[1].base == full.waves[0].instrs[1].base);
    CHECK(taken.waves[0].instrs[0].count == 4);
    REQUIRE(two.read_workgroup());  // block 2 after a take: fresh buffers
    CHECK(two.read_waves()[0].instrs[0].count == 5);
    CHECK_FALSE(two.read_workgroup());
    CHECK_FALSE(two.next_kernel());
}

TEST_CASE("kernel reader: a bad record in a workgroup read and not taken is still an error", "[replay][bad-input]") {
    const std::string path = write_temp("bad.trace", three_blocks("ld global 4 0x10 0x100000000 affine 0x1000 4\n"));
    KernelReader r(std::make_unique<TraceStream>(path), 32);
    REQUIRE(r.next_kernel());
    REQUIRE(r.read_workgroup());
    try {
        r.read_workgroup();
        FAIL("no error");
    } catch (const TraceError& e) {
        CHECK(std::string(e.what()).rfind(path + ":20: lane mask has lanes that do not exist", 0) == 0);
    }
}

namespace {
// A kernel of `blocks` workgroups of three wave32s, the last one of 16 lanes, wave 0 visited twice,
// with every kind of wave instruction: affine, uniform and listed addresses, `all` and partial masks,
// read-only PCs, each compute and wait form.
std::string varied_kernel(unsigned blocks) {
    std::mt19937_64 rng(11);
    std::ostringstream o;
    o << std::hex << "dcusim-trace 1\nwave_size 32\nkernel varied grid " << std::dec << blocks << std::hex
      << " 1 1 block 80 1 1 lds 1024\npc 0x10 readonly\npc 0x30 readonly line k.hip:3\n";
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned visit = 0; visit < 4; ++visit) {
            const unsigned w = visit % 3;  // wave 0 twice: its lists and pool grow on the second visit
            o << "wave " << std::dec << b << " " << w << std::hex << "\n";
            o << "ld global 4 0x10 all affine 0x" << 0x100000 + b * 0x400 + w * 0x80 << " 4\n";
            o << "ld global 8 0x18 0x" << (w == 2 ? 0x8001 : 0x80000001) << " list 0x" << (rng() >> 24) << " 0x" << (rng() >> 24) << "\n";
            o << "st lds 16 0x20 all affine 0x400 -0x10\nld const 4 0x30 0x3 affine 0x40 0\n";
            o << "atom local 4 0x28 all list";
            for (unsigned l = 0; l < (w == 2 ? 16u : 32u); ++l) o << " 0x" << (rng() >> 40);
            o << "\ncompute 7\nbar 0x30\nwait\nwait 0x38\ncompute 9 long 2\ncompute 5 mid 3\ncompute 8 lds 3\n";
            o << "compute 9 long 1 mid 2 lds 4 stall 31\nwait keep 2\nwait 0x40 keep 1\ncompute 3\n";
        }
    return o.str() + "end\n";
}
// The text's records in a binary file of chunks of `chunk_bytes`, unchecked (a bad one is written as it
// is), and `extra` before the first wave of block 2 when given.
std::string binary_of(const std::string& text_path, const Record* extra = nullptr, size_t chunk_bytes = 1 << 20) {
    const std::string path = write_temp("varied.dctrace", "");
    std::ofstream f(path, std::ios::binary);
    BinaryWriter w(f, 3, chunk_bytes);
    const std::unique_ptr<RecordSource> src = open_source(text_path);
    for (Record r; src->next(r);) {
        if (extra && r.kind == RecKind::Wave && r.block == 2) w.write(*extra), extra = nullptr;
        w.write(r);
    }
    w.finish();
    return path;
}
// Equal as the model reads them: each kind's own fields, list addresses by lane.
void require_same(const WaveTrace& a, const WaveTrace& b) {
    REQUIRE(a.instrs.size() == b.instrs.size());
    for (size_t i = 0; i < a.instrs.size(); ++i) {
        const Instr &x = a.instrs[i], &y = b.instrs[i];
        REQUIRE(x.kind == y.kind);
        CHECK(x.pc == y.pc);
        if (x.kind == RecKind::Compute)
            CHECK(std::vector<uint64_t>{x.count, x.long_count, x.mid_count, x.lds_count, x.stall} ==
                  std::vector<uint64_t>{y.count, y.long_count, y.mid_count, y.lds_count, y.stall});
        if (x.kind == RecKind::Wait) CHECK(x.keep == y.keep);
        if (x.kind != RecKind::Mem) continue;
        CHECK((x.op == y.op && x.space == y.space && x.bytes == y.bytes && x.mode == y.mode && x.readonly == y.readonly));
        CHECK(x.mask == y.mask);
        std::vector<uint64_t> ax, ay;
        a.for_each_lane(x, [&](unsigned, uint64_t v) { ax.push_back(v); });
        b.for_each_lane(y, [&](unsigned, uint64_t v) { ay.push_back(v); });
        CHECK(ax == ay);
    }
}
}  // namespace

// The binary reader decodes a wave's instructions straight into its lists (RecordSource::next_instrs);
// the text reader hands them over one record at a time. Both must give the model the same waves.
TEST_CASE("kernel reader: a binary trace's workgroups equal its text's, across chunks", "[replay][binary]") {
    // Chunks of about 300 bytes: a chunk ends after every few records, at every kind of record.
    const std::string text = write_temp("varied.trace", varied_kernel(3000)), bin = binary_of(text, nullptr, 300);
    KernelReader t(std::make_unique<TraceStream>(text), 32), b(std::make_unique<TraceStream>(bin), 32);
    REQUIRE(t.next_kernel());
    REQUIRE(b.next_kernel());
    uint64_t workgroups = 0, listed = 0, readonly = 0;
    while (t.read_workgroup()) {
        REQUIRE(b.read_workgroup());
        REQUIRE(t.read_waves().size() == 3);
        REQUIRE(b.read_waves().size() == 3);
        for (size_t w = 0; w < 3; ++w) {
            require_same(t.read_waves()[w], b.read_waves()[w]);
            listed += b.read_waves()[w].pool.size();
            for (const Instr& in : b.read_waves()[w].instrs) readonly += in.readonly;
        }
        ++workgroups;
    }
    CHECK_FALSE(b.read_workgroup());
    CHECK_FALSE(b.next_kernel());  // the end marker's record count agrees with the records decoded
    CHECK(workgroups == 3000);
    CHECK(listed == 3000 * (2 * 4 + 32 + 32 + 16 + 32));  // the list loads' lanes (2 a visit), the atomics' (wave 0's twice)
    CHECK(readonly == 3000 * 4 * 2);                      // the loads at 0x10 and 0x30 in each visit
    std::ifstream f(bin, std::ios::binary);
    const std::string s(std::istreambuf_iterator<char>(f), {});
    CHECK((uint8_t(s[s.size() - 12]) | uint8_t(s[s.size() - 11]) << 8) >= 1000);  // data chunks
}

// A record the fast path refuses is read again by TraceStream, which names what is wrong: the same
// message as the record-by-record reading gives, at the binary trace's place (its chunk).
TEST_CASE("kernel reader: a binary wave's bad instruction is refused as TraceStream words it", "[replay][binary][bad-input]") {
    const std::pair<const char*, const char*> cases[] = {
        {"ld global 4 0x10 0x100000000 affine 0x1000 4\n", "lane mask has lanes that do not exist in wave 1"},
        {"st global 4 0x10 all affine 0xfffffffefffffff0 4\n", "global access of 4 bytes at 18446744069414584428 leaves the 64-bit address space"},
        {"ld lds 4 0x10 0x1 affine 0xfffffffe 0\n", "lds access of 4 bytes at 4294967294 leaves the 4 GiB window"},
        {"compute 3 long 2 mid 2\n", "compute: 2 middle-latency instructions and 2 long of 3"},
        {"", "list has 1 addresses for 2 active lanes"},
    };
    Record list;  // a list of one address for two lanes, which the text grammar cannot write
    list.kind = RecKind::Mem;
    list.mem.mask = 0x3, list.mem.mode = AddrMode::List, list.mem.addrs = {0x1000};
    for (const auto& [bad, message] : cases) {
        const bool listed = std::string(bad).empty();
        const std::string bin = binary_of(write_temp("bad.trace", three_blocks(bad)), listed ? &list : nullptr);
        KernelReader r(std::make_unique<TraceStream>(bin), 32);
        REQUIRE(r.next_kernel());
        REQUIRE(r.read_workgroup());
        try {
            r.read_workgroup();
            FAIL("no error for " << bad);
        } catch (const TraceError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).rfind(bin + ": chunk 1: " + message, 0) == 0);
        }
        // In chunks of 40 bytes the bad record is in a later chunk: the same words as reading record by record.
        const std::string small = binary_of(write_temp("bad.trace", three_blocks(bad)), listed ? &list : nullptr, 40);
        std::string by_records, by_workgroups;
        try {
            dcusim::test::read_all(small);
        } catch (const TraceError& e) {
            by_records = e.what();
        }
        try {
            KernelReader k(std::make_unique<TraceStream>(small), 32);
            while (k.next_kernel())
                while (k.read_workgroup()) {}
        } catch (const TraceError& e) {
            by_workgroups = e.what();
        }
        CHECK(by_workgroups == by_records);
        CHECK(by_records.rfind(small + ": chunk ", 0) == 0);
        CHECK(by_records.rfind(small + ": chunk 1: ", 0) == std::string::npos);
        CHECK(by_records.find(message) != std::string::npos);
    }
}

TEST_CASE("kernel reader: a PC's attributes mark its instructions, the next kernel's its own", "[replay]") {
    const std::string text =
        "dcusim-trace 1\nwave_size 32\nkernel a grid 1 1 1 block 32 1 1\npc 0x10 atomic float\npc 0x20 readonly\n"
        "pc 0x20 atomic int\n"
        "pc 0x30 atomic int line a.hip:3\nwave 0 0\natom global 4 0x10 all affine 0x100 0\nld global 4 0x20 all affine 0x200 4\n"
        "atom global 4 0x30 all affine 0x300 0\natom global 4 0x40 all affine 0x400 0\nend\n"
        "kernel b grid 1 1 1 block 32 1 1\nwave 0 0\natom global 4 0x10 all affine 0x100 0\nend\n";
    KernelReader r = reader_of(text, 32);
    WorkgroupTrace wg;
    REQUIRE(r.next_kernel());
    REQUIRE(r.next_workgroup(wg));
    const auto& in = wg.waves.at(0).instrs;
    REQUIRE(in.size() == 4);
    CHECK(in[0].atomic == AtomicKind::Float);
    CHECK_FALSE(in[0].readonly);
    CHECK(in[1].readonly);  // PC 0x20 declared twice: both attributes
    CHECK(in[1].atomic == AtomicKind::Int);
    CHECK(in[2].atomic == AtomicKind::Int);
    CHECK(in[3].atomic == AtomicKind::Unknown);  // no declaration
    REQUIRE(r.next_kernel());  // kernel b declares nothing: its PC 0x10 is not kernel a's
    REQUIRE(r.next_workgroup(wg));
    CHECK(wg.waves.at(0).instrs.at(0).atomic == AtomicKind::Unknown);
}
