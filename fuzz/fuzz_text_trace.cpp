// libFuzzer harness: the text trace reader and the stream checks behind it.
// Any input must end in a TraceError or a complete read, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "traces/format/source.h"
#include "traces/format/text_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace dcusim::trace;
    auto in = std::make_unique<std::istringstream>(std::string(reinterpret_cast<const char*>(data), size));
    try {
        TraceStream stream(std::make_unique<TextReader>(std::move(in), "fuzz.trace"));
        Record r;
        while (stream.next(r)) {
        }
    } catch (const TraceError&) {
    }
    return 0;
}
