// libFuzzer harness: the binary trace reader and the stream checks behind it.
// Random bytes rarely pass a chunk's checksum, so the first byte picks the mode:
// even, the rest are one chunk's raw (decompressed) record bytes, resealed into
// a valid file (header, chunk header with its sizes, count and checksum, zstd
// frame, end chunk) so that the record decoder is what is fuzzed; odd, the rest
// is the file itself (the container checks). The record count of a resealed
// chunk is the second byte when below 255, else the number of bytes (at most).
// Any input must end in a TraceError or a complete read; an accepted one must
// round-trip through binary and text unchanged.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace dcusim::trace;
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
    try {
        recs = fuzz::read_all(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(file), "fuzz.dctrace"));
    } catch (const TraceError&) {
        return 0;
    }
    fuzz::round_trip(recs);
    return 0;
}
