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
    // Where decoding stands in the chunk. Records are decoded from a local Cursor, written back to pos_
    // once a record or a run of them is done: the fields decoded are stored through byte-sized members,
    // which may alias any of the reader's, so a position kept in pos_ was reloaded and stored again for
    // every byte (about 40 % of a wave instruction's host instructions).
    struct Cursor {
        const uint8_t* p;
        const uint8_t* end;
    };
    Cursor cursor() const { return {raw_.data() + pos_, raw_.data() + raw_.size()}; }
    void advance_to(const Cursor& c) { pos_ = size_t(c.p - raw_.data()); }
    bool next_other(Cursor& c, uint8_t tag, Record& r);  // every kind but a wave's instructions
    // Most numbers of a trace fit one or two bytes: those cases inline, the rest out of line.
    uint64_t varint(Cursor& c) const {
        const uint8_t b = byte(c);
        if (!(b & 0x80)) return b;
        // Two bytes (PCs, LDS offsets) inline too.
        if (c.p < c.end && !(*c.p & 0x80)) return (b & 0x7f) | uint64_t(*c.p++) << 7;
        const Long v = varint_from(c.p, c.end, b);
        c.p = v.p;
        return v.value;
    }
    // A long varint's value and the byte after it; by value, so that no caller's cursor leaves its registers.
    struct Long {
        uint64_t value;
        const uint8_t* p;
    };
    Long varint_from(const uint8_t* p, const uint8_t* end, uint8_t first) const;
    // Nearly every byte of every record passes here (varint_from reads long numbers itself): inline,
    // the bounds check its only branch.
    uint8_t byte(Cursor& c) const {
        if (c.p >= c.end) past_end();
        return *c.p++;
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
    [[gnu::always_inline]] inline MemHead mem_head(Cursor& c, uint8_t tag) const;
    // Inline, as everything that takes a cursor: one passed out of line would live in memory.
    [[gnu::always_inline]] inline uint64_t list_count(Cursor& c) const;
    [[gnu::always_inline]] inline void list_addrs(Cursor& c, uint64_t* a, uint64_t n) const;
    void decode_mem(Cursor& c, uint8_t tag, Record& r);
    // A compute record's fields after its tag (a Record's or an Instr's): those its tag names, the rest 0.
    template <typename T>
    void compute_fields(Cursor& c, uint8_t tag, T& x) const {
        using namespace bin;
        static_assert(kComputeFields == 5 && kComputeTags[0] == TCompute && kComputeTags[1] == TComputeLong &&
                          kComputeTags[2] == TComputeMid && kComputeTags[3] == TComputeLds && kComputeTags[4] == TComputeStall,
                      "the ladder below is kComputeTags'");
        const unsigned named = tag == TCompute ? 0 : tag == TComputeLong ? 1 : tag == TComputeMid ? 2 : tag == TComputeLds ? 3 : 4;
        x.count = varint(c);
        x.long_count = named >= 1 ? varint(c) : 0;
        x.mid_count = named >= 2 ? varint(c) : 0;
        x.lds_count = named >= 3 ? varint(c) : 0;
        x.stall = named >= 4 ? varint(c) : 0;
    }
    [[gnu::always_inline]] inline bool decode_instr(Cursor& c, Instr& in, std::vector<uint64_t>& pool, uint64_t full_mask) const;
    template <typename T>
    [[gnu::always_inline]] inline bool decode_plain(Cursor& c, uint8_t tag, T& x) const;  // barrier, wait, compute: inside both loops
    void decode_host(Cursor& c, uint8_t tag, Record& r) const;  // copy, sync, host, map

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
