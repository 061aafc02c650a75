// Shared by the trace harnesses: an accepted trace must come back unchanged
// through both writers and readers; any difference is a finding (abort).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "traces/format/binary_reader.h"
#include "traces/format/binary_writer.h"
#include "traces/format/sink.h"
#include "traces/format/source.h"
#include "traces/format/text_reader.h"

namespace fuzz {

using namespace dcusim::trace;

// Every record of `src`, checked by TraceStream; throws TraceError.
inline std::vector<Record> read_all(std::unique_ptr<RecordSource> src) {
    TraceStream s(std::move(src));
    std::vector<Record> out;
    Record r;
    while (s.next(r)) out.push_back(r);
    return out;
}

[[noreturn]] inline void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "round trip: %s: %s\n", what, detail.c_str());
    std::abort();
}

// Records read from the input, written to binary and text and read back, are identical.
// A writer or reader refusing what was accepted is a finding too.
inline void round_trip(const std::vector<Record>& recs) {
    std::ostringstream bin, text;
    {
        BinaryWriter bw(bin, 1, 256);  // small chunks: the chunk boundaries are exercised too
        TextWriter tw(text);
        for (const Record& r : recs) bw.write(r), tw.write(r);
        bw.finish();
        tw.finish();
    }
    std::vector<Record> via_bin, via_text;
    try {
        via_bin = read_all(std::make_unique<BinaryReader>(std::make_unique<std::istringstream>(bin.str()), "rt.dctrace"));
    } catch (const TraceError& e) {
        finding("binary copy refused", e.what());
    }
    try {
        via_text = read_all(std::make_unique<TextReader>(std::make_unique<std::istringstream>(text.str()), "rt.trace"));
    } catch (const TraceError& e) {
        finding("text copy refused", e.what());
    }
    if (via_bin != recs) finding("binary copy differs", text.str().substr(0, 2000));
    if (via_text != recs) finding("text copy differs", text.str().substr(0, 2000));
}

}  // namespace fuzz
