// Damaged binary traces: a trace of many chunks, cut at every chunk boundary
// and at random offsets, and with single bits flipped, is either refused with
// a one-line TraceError or (damage the checksums cannot see) reads back to
// exactly the original records. Also each container field a reader checks.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <sstream>

#include "traces/format/binary_format.h"
#include "traces/format/binary_reader.h"
#include "traces/format/binary_writer.h"
#include "traces/format/source.h"
#include "traces/replay/kernel_reader.h"

using namespace dcusim::trace;

namespace {
// A wave64 trace of two kernels, with every record kind and address encoding.
std::vector<Record> sample() {
    std::vector<Record> v;
    auto add = [&](RecKind k) -> Record& { v.emplace_back(); v.back().kind = k; return v.back(); };
    add(RecKind::WaveSize).wave_size = 64;
    for (int kernel = 0; kernel < 2; ++kernel) {
        Record& k = add(RecKind::Kernel);
        k.kernel.name = "k" + std::to_string(kernel);
        k.kernel.grid = {8, 1, 1};
        k.kernel.block = {128, 1, 1};
        k.kernel.lds_bytes = 4096;
        k.kernel.present = KernelInfo::HasLds;
        Record& pc = add(RecKind::PcInfo);
        pc.pc = 0x40, pc.pc_flags = PcReadOnly | PcHasLine, pc.pc_line = "a.cu:12";
        for (uint64_t block = 0; block < 8; ++block)
            for (uint64_t wave = 0; wave < 2; ++wave) {
                Record& w = add(RecKind::Wave);
                w.block = block, w.wave = wave;
                for (int i = 0; i < 6; ++i) {
                    Record& m = add(RecKind::Mem);
                    m.mem.space = i % 2 ? Space::Lds : Space::Global;
                    m.mem.op = Op(i % 3);
                    m.mem.pc = 0x40 + 8 * uint64_t(i);
                    m.mem.mask_all = i != 3;
                    m.mem.mask = ~0ull;
                    m.mem.mode = i == 5 ? AddrMode::List : AddrMode::Affine;
                    m.mem.base = 0x1000 * (block + 1) + 64 * wave;
                    m.mem.stride = i == 4 ? 0 : -4 + 8 * i;
                    if (m.mem.stride < 0) m.mem.base += 4096;
                    if (i == 5)
                        for (uint64_t lane = 0; lane < 64; ++lane) m.mem.addrs.push_back((lane * 2654435761u) % 4096);
                    Record& c = add(RecKind::Compute);
                    c.count = 10 + uint64_t(i), c.long_count = uint64_t(i % 2), c.mid_count = uint64_t(i % 3 == 2);
                }
                add(RecKind::Barrier).pc = 0x100;
                add(RecKind::Wait).has_pc = wave == 1;
            }
        add(RecKind::End);
    }
    return v;
}
std::string write(const std::vector<Record>& recs, size_t chunk_bytes) {
    std::ostringstream o;
    BinaryWriter w(o, 3, chunk_bytes);
    for (const auto& r : recs) w.write(r);
    w.finish();
    return o.str();
}
// The records of `bytes` (masks resolved, as TraceStream gives them), or the error.
std::vector<Record> read(const std::string& bytes, std::string& error) {
    std::vector<Record> out;
    error.clear();
    try {
        TraceStream s(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(bytes), "d.dctrace"));
        Record r;
        while (s.next(r)) out.push_back(r);
    } catch (const TraceError& e) {
        error = e.what();
    }
    return out;
}
// The error reading `bytes` workgroup by workgroup, as the simulator does (a wave's instructions
// straight into its lists: RecordSource::next_instrs), or "" when it reads to the end.
std::string workgroups_error(const std::string& bytes) {
    try {
        KernelReader k(std::make_unique<TraceStream>(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(bytes), "d.dctrace")),
                       64);
        while (k.next_kernel())
            while (k.read_workgroup()) {}
    } catch (const TraceError& e) {
        return e.what();
    }
    return "";
}
std::vector<size_t> chunk_starts(const std::string& f) {
    std::vector<size_t> at;
    size_t p = dcusim::trace::bin::kHeaderBytes;
    while (p + 24 <= f.size()) {
        at.push_back(p);
        uint32_t packed;
        std::memcpy(&packed, f.data() + p + 8, 4);  // little-endian host
        p += 24 + (f.compare(p, 4, "CHNK") == 0 ? packed : 0);
    }
    return at;
}
void expect_refused(const std::string& bytes, const std::string& what) {
    std::string err;
    read(bytes, err);
    INFO(what);
    REQUIRE(!err.empty());
    CHECK(err.find('\n') == std::string::npos);
    CHECK(err.rfind("d.dctrace", 0) == 0);
    CHECK(workgroups_error(bytes) == err);  // the same words, whichever way the records are read
}
}  // namespace

TEST_CASE("a binary trace cut anywhere is refused with one line", "[damaged][binary]") {
    const std::vector<Record> recs = sample();
    const std::string f = write(recs, 512);
    std::string err;
    const std::vector<Record> back = read(f, err);
    REQUIRE(err.empty());
    REQUIRE(back.size() == recs.size());
    const std::vector<size_t> starts = chunk_starts(f);
    REQUIRE(starts.size() > 10);  // data chunks and the end chunk
    for (size_t at : starts) expect_refused(f.substr(0, at), "cut at the chunk boundary " + std::to_string(at));
    for (size_t at : starts)
        if (at + 24 < f.size()) expect_refused(f.substr(0, at + 24), "cut after the chunk header at " + std::to_string(at));
    CHECK(starts.back() + 24 == f.size());  // the last is the end chunk
    std::mt19937_64 rng(22);
    for (int i = 0; i < 100; ++i) {
        const size_t at = size_t(rng() % f.size());
        expect_refused(f.substr(0, at), "cut at " + std::to_string(at));
    }
}

TEST_CASE("a binary trace with one bit flipped is refused or reads back unchanged", "[damaged][binary]") {
    const std::vector<Record> recs = sample();
    const std::string f = write(recs, 512);
    std::string err;
    const std::vector<Record> original = read(f, err);
    REQUIRE(err.empty());
    std::mt19937_64 rng(2201);
    int refused = 0;
    for (int i = 0; i < 1000; ++i) {
        std::string d = f;
        const size_t bit = size_t(rng() % (d.size() * 8));
        d[bit / 8] = char(d[bit / 8] ^ (1 << (bit % 8)));
        const std::vector<Record> got = read(d, err);
        INFO("bit " << bit);
        CHECK(workgroups_error(d) == err);
        if (err.empty()) {
            CHECK(got == original);
        } else {
            ++refused;
            CHECK(err.find('\n') == std::string::npos);
        }
    }
    CHECK(refused > 990);  // the checksums see nearly every flip
}

TEST_CASE("each container field is checked against what was read", "[damaged][binary]") {
    std::vector<Record> recs = sample();
    recs.resize(3);  // wave_size, kernel, pc: no end, the stream checks are not the point here
    std::string f = write(recs, 1 << 20);
    const size_t end = f.size() - 24;
    std::string err;
    auto error_of = [&](const std::string& bytes) {
        try {
            BinaryReader r(std::make_unique<std::istringstream>(bytes), "d.dctrace");
            Record rec;
            while (r.next(rec)) {}
        } catch (const TraceError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error_of(f) == "no error");
    std::string d = f;
    d[12] = 1;
    CHECK(error_of(d) == "d.dctrace: file header: reserved field is 1, not 0 (corrupt file)");
    d = f;
    d[end + 4] = 5;
    CHECK(error_of(d) == "d.dctrace: chunk 2: end marker: reserved fields are 5 and 0, not 0");
    d = f;
    d[end + 8] = 1;
    CHECK(error_of(d) == "d.dctrace: chunk 2: end marker: reserved fields are 0 and 1, not 0");
    d = f;
    d[end + 12] = 2;
    CHECK(error_of(d) == "d.dctrace: chunk 2: end marker says 2 chunks and 3 records, file has 1 and 3");
    d = f;
    d[end + 16] = 4;
    CHECK(error_of(d) == "d.dctrace: chunk 2: end marker says 1 chunks and 4 records, file has 1 and 3");
    CHECK(error_of(f + '\0') == "d.dctrace: chunk 2: bytes after the end marker");
    CHECK(error_of(f + f.substr(16)) == "d.dctrace: chunk 2: bytes after the end marker");
    // A chunk whose record count disagrees with its bytes (checksum and sizes resealed correctly).
    const std::vector<uint8_t> raw = {bin::TWaveSize, 64, bin::TEnd};
    CHECK(error_of(BinaryWriter::seal(raw, 2)) == "no error");
    CHECK(error_of(BinaryWriter::seal(raw, 1)) == "d.dctrace: chunk 1: chunk holds more bytes than its records");
    CHECK(error_of(BinaryWriter::seal(raw, 3)) == "d.dctrace: chunk 1: record runs past the end of its chunk");
    CHECK(error_of(BinaryWriter::seal(raw, 4)) == "d.dctrace: chunk 1: chunk says 4 records in 3 bytes");
}
