#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sink.h"

namespace dcusim::trace {

// Streams records into zstd-compressed chunks; memory use is one chunk.
class BinaryWriter : public RecordSink {
public:
    BinaryWriter(std::ostream& out, int level = 3);
    ~BinaryWriter() override;
    void write(const Record& r) override;
    void finish() override;

private:
    void flush_chunk();

    std::ostream& out_;
    int level_;
    void* cctx_;
    std::vector<uint8_t> raw_;
    std::vector<uint8_t> packed_;
    uint32_t records_in_chunk_ = 0;
    uint32_t chunks_ = 0;
    uint64_t records_ = 0;
};

}  // namespace dcusim::trace
