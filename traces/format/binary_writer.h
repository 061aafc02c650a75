#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sink.h"

namespace dcusim::trace {

// Streams records into zstd-compressed chunks; memory use is one chunk.
class BinaryWriter : public RecordSink {
public:
    // chunk_bytes: records are packed until a chunk holds this many raw bytes (tests make it small).
    BinaryWriter(std::ostream& out, int level = 3, size_t chunk_bytes = size_t(1) << 20);
    ~BinaryWriter() override;
    void write(const Record& r) override;
    void finish() override;
    // A complete file in memory around `raw` as one chunk's record bytes,
    // `records` of them (sizes, count and checksum correct, whatever the bytes):
    // how tests and the fuzzer reach the record decoder past the checksums.
    static std::string seal(const std::vector<uint8_t>& raw, uint32_t records);

private:
    void flush_chunk();

    std::ostream& out_;
    int level_;
    size_t chunk_bytes_;
    void* cctx_;
    std::vector<uint8_t> raw_;
    std::vector<uint8_t> packed_;
    uint32_t records_in_chunk_ = 0;
    uint32_t chunks_ = 0;
    uint64_t records_ = 0;
};

}  // namespace dcusim::trace
