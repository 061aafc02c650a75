// libFuzzer harness: the binary trace reader and the stream checks behind it.
// Random bytes rarely pass a chunk's checksum, so the first byte picks the mode:
// even, the rest are one chunk's raw (decompressed) record bytes, resealed into
// a valid file (header, chunk header with its sizes, count and checksum, zstd
// frame, end chunk) so that the record decoder is what is fuzzed; odd, the rest
// is the file itself (the container checks). The record count of a resealed
// chunk is the second byte when below 255, else the number of bytes (at most).
// Any input must end in a TraceError or a complete read; an accepted one must
// round-trip through binary and text unchanged. Read workgroup by workgroup, as
// the simulator reads it (a wave's instructions straight into its lists), it
// must give the same error, or as many instructions as the records hold.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "round_trip.h"
#include "traces/replay/kernel_reader.h"

namespace {
using namespace dcusim::trace;

// The error reading `file` workgroup by workgroup ("" when it reads to the end), and the wave
// instructions it decoded.
std::string read_workgroups(const std::string& file, uint64_t& instrs) {
    instrs = 0;
    try {
        KernelReader k(std::make_unique<TraceStream>(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(file), "fuzz.dctrace")),
                       64);
        while (k.next_kernel())
            while (k.read_workgroup())
                for (const WaveTrace& w : k.read_waves()) instrs += w.instrs.size();
    } catch (const TraceError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    std::string file;
    if (data[0] % 2 == 0) {
        const std::vector<uint8_t> raw(data + 2, data + size);
        const uint32_t records = data[1] < 255 ? data[1] : uint32_t(raw.size());
        file = BinaryWriter::seal(raw, records);
    } else {
        file.assign(reinterpret_cast<const char*>(data + 1), size - 1);
    }
    std::vector<Record> recs;
    std::string error;
    try {
        recs = fuzz::read_all(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(file), "fuzz.dctrace"));
    } catch (const TraceError& e) {
        error = e.what();
    }
    uint64_t instrs = 0;
    const std::string by_workgroups = read_workgroups(file, instrs);
    if (by_workgroups != error) fuzz::finding("read by workgroups, the error differs", error + " | " + by_workgroups);
    if (!error.empty()) return 0;
    uint64_t expected = 0;
    for (const Record& r : recs)
        expected += r.kind == RecKind::Mem || r.kind == RecKind::Barrier || r.kind == RecKind::Wait || r.kind == RecKind::Compute;
    if (instrs != expected) fuzz::finding("read by workgroups, instructions differ", std::to_string(instrs) + " of " + std::to_string(expected));
    fuzz::round_trip(recs);
    return 0;
}
