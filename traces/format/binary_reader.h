#pragma once

#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "binary_format.h"
#include "source.h"

namespace dcusim::trace {

// Reads a binary trace one chunk at a time.
class BinaryReader : public RecordSource {
public:
    explicit BinaryReader(const std::string& path);
    // Reads from `in` (a file or memory); `name` is used in error messages.
    BinaryReader(std::unique_ptr<std::istream> in, std::string name);
    ~BinaryReader() override;
    bool next(Record& r) override;
    size_t next_instrs(std::vector<Instr>& instrs, std::vector<uint64_t>& pool, uint64_t full_mask) override;
    std::string where() const override;

private:
    [[noreturn]] void fail(const std::string& what) const;
    void read_header();
    void end_chunk(const uint8_t* h);
    bool load_chunk();
    bool refill();
    bool next_other(uint8_t tag, Record& r);  // every kind but a wave's instructions
    // Most numbers of a trace fit one or two bytes: those cases inline, the rest out of line.
    uint64_t varint() {
        const uint8_t b = byte();
        if (!(b & 0x80)) return b;
        // Two bytes (PCs, LDS offsets) inline too.
        if (pos_ < raw_.size() && !(raw_[pos_] & 0x80)) return (b & 0x7f) | uint64_t(raw_[pos_++]) << 7;
        return varint_from(b);
    }
    uint64_t varint_from(uint8_t first);
    // Nearly every byte of every record passes here (varint_from reads long numbers itself): inline,
    // the bounds check its only branch.
    uint8_t byte() {
        if (pos_ >= raw_.size()) past_end();
        return raw_[pos_++];
    }
    [[noreturn]] void past_end() const;
    struct MemHead {
        Op op;
        Space space;
        uint8_t bytes;
        bool all;
        unsigned enc;
        uint64_t pc, mask;
    };
    MemHead mem_head(uint8_t tag);
    uint64_t list_count();
    void list_addrs(uint64_t* a, uint64_t n);
    void decode_mem(uint8_t tag, Record& r);
    // A compute record's fields after its tag (a Record's or an Instr's): those its tag names, the rest 0.
    template <typename T>
    void compute_fields(uint8_t tag, T& c) {
        using namespace bin;
        static_assert(kComputeFields == 5 && kComputeTags[0] == TCompute && kComputeTags[1] == TComputeLong &&
                          kComputeTags[2] == TComputeMid && kComputeTags[3] == TComputeLds && kComputeTags[4] == TComputeStall,
                      "the ladder below is kComputeTags'");
        const unsigned named = tag == TCompute ? 0 : tag == TComputeLong ? 1 : tag == TComputeMid ? 2 : tag == TComputeLds ? 3 : 4;
        c.count = varint();
        c.long_count = named >= 1 ? varint() : 0;
        c.mid_count = named >= 2 ? varint() : 0;
        c.lds_count = named >= 3 ? varint() : 0;
        c.stall = named >= 4 ? varint() : 0;
    }
    bool decode_instr(Instr& in, std::vector<uint64_t>& pool, uint64_t full_mask);
    template <typename T>
    [[gnu::always_inline]] inline bool decode_plain(uint8_t tag, T& x);  // barrier, wait, compute: inside both loops
    void decode_host(uint8_t tag, Record& r);  // copy, sync, host, map

    std::string path_;
    std::unique_ptr<std::istream> in_;
    std::unique_ptr<void, void (*)(void*)> dctx_;  // ZSTD_DCtx, freed however construction ends
    std::vector<uint8_t> raw_, packed_;
    size_t pos_ = 0;
    uint32_t chunk_ = 0;        // 1-based index of the chunk being decoded
    uint32_t left_in_chunk_ = 0;
    uint64_t records_ = 0;
    bool ended_ = false;
};

}  // namespace dcusim::trace
