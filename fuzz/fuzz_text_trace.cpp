// libFuzzer harness: the text trace reader and the stream checks behind it.
// Any input must end in a TraceError or a complete read, never a crash or a
// hang; an accepted one must round-trip through binary and text unchanged.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace dcusim::trace;
    auto in = std::make_unique<std::istringstream>(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<Record> recs;
    try {
        recs = fuzz::read_all(std::make_unique<TextReader>(std::move(in), "fuzz.trace"));
    } catch (const TraceError&) {
        return 0;
    }
    fuzz::round_trip(recs);
    return 0;
}
