#include "binary_reader.h"

#include <zstd.h>

#include <cstring>
#include <type_traits>

#include "binary_format.h"

namespace dcusim::trace {

using namespace bin;

static uint32_t get_u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
static uint64_t get_u64(const uint8_t* p) { return uint64_t(get_u32(p)) | uint64_t(get_u32(p + 4)) << 32; }

static int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

static void free_dctx(void* c) { ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(c)); }

BinaryReader::BinaryReader(const std::string& path)
    : path_(path), in_(std::make_unique<std::ifstream>(path, std::ios::binary)), dctx_(ZSTD_createDCtx(), free_dctx) {
    if (!*in_) throw TraceError(path + ": cannot open trace file");
    read_header();
}

BinaryReader::BinaryReader(std::unique_ptr<std::istream> in, std::string name)
    : path_(std::move(name)), in_(std::move(in)), dctx_(ZSTD_createDCtx(), free_dctx) {
    read_header();
}

void BinaryReader::read_header() {
    uint8_t h[kHeaderBytes];
    in_->read(reinterpret_cast<char*>(h), kHeaderBytes);
    auto bad = [&](const std::string& what) { throw TraceError(path_ + ": " + what); };
    if (in_->gcount() != std::streamsize(kHeaderBytes)) bad("truncated file header");
    if (std::memcmp(h, kMagic, 8) != 0) bad("bad magic (not a dcusim binary trace)");
    uint32_t v = get_u32(h + 8);
    if (v != kVersion)
        bad("unsupported binary trace version " + std::to_string(v) + " (this dcusim reads version " + std::to_string(kVersion) + ")");
    if (get_u32(h + 12) != 0) bad("file header: reserved field is " + std::to_string(get_u32(h + 12)) + ", not 0 (corrupt file)");
}

BinaryReader::~BinaryReader() = default;

std::string BinaryReader::where() const {
    return path_ + ": chunk " + std::to_string(chunk_);
}

void BinaryReader::fail(const std::string& what) const { throw TraceError(where() + ": " + what); }

bool BinaryReader::load_chunk() {
    uint8_t h[kChunkHeaderBytes];
    ++chunk_;
    in_->read(reinterpret_cast<char*>(h), kChunkHeaderBytes);
    if (in_->gcount() == 0) fail("truncated: the file ends without its end marker");
    if (in_->gcount() != std::streamsize(kChunkHeaderBytes)) fail("truncated chunk header");
    uint32_t tag = get_u32(h), raw = get_u32(h + 4), packed = get_u32(h + 8), recs = get_u32(h + 12);
    uint64_t sum = get_u64(h + 16);
    if (tag == kEndTag) {
        end_chunk(h);
        return false;
    }
    if (tag != kChunkTag) fail("bad chunk tag (corrupt file)");
    if (raw > kChunkRawLimit || packed > ZSTD_compressBound(kChunkRawLimit) || recs == 0)
        fail("implausible chunk header (corrupt file)");
    if (recs > raw) fail("chunk says " + std::to_string(recs) + " records in " + std::to_string(raw) + " bytes");
    packed_.resize(packed);
    in_->read(reinterpret_cast<char*>(packed_.data()), packed);
    if (in_->gcount() != std::streamsize(packed)) fail("truncated chunk data");
    if (fnv1a64(packed_.data(), packed) != sum) fail("checksum mismatch");
    raw_.resize(raw);
    size_t n = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_.get()), raw_.data(), raw, packed_.data(), packed);
    if (ZSTD_isError(n)) fail(std::string("decompression failed: ") + ZSTD_getErrorName(n));
    if (n != raw) fail("chunk decompressed to the wrong size");
    pos_ = 0;
    left_in_chunk_ = recs;
    return true;
}

// The end chunk: zero reserved fields, totals equal to what was read, nothing after it.
void BinaryReader::end_chunk(const uint8_t* h) {
    const uint32_t raw = get_u32(h + 4), packed = get_u32(h + 8), chunks = get_u32(h + 12);
    const uint64_t records = get_u64(h + 16);
    if (raw != 0 || packed != 0) fail("end marker: reserved fields are " + std::to_string(raw) + " and " + std::to_string(packed) + ", not 0");
    if (chunks != chunk_ - 1 || records != records_)
        fail("end marker says " + std::to_string(chunks) + " chunks and " + std::to_string(records) + " records, file has " +
             std::to_string(chunk_ - 1) + " and " + std::to_string(records_));
    if (in_->peek() != std::char_traits<char>::eof()) fail("bytes after the end marker");
    ended_ = true;
}

void BinaryReader::past_end() const { fail("record runs past the end of its chunk"); }

BinaryReader::Long BinaryReader::varint_from(const uint8_t* p, const uint8_t* end, uint8_t first) const {
    uint64_t v = first & 0x7f;
    // The usual case, a whole varint's worst length left in the chunk: no bounds check a byte. Ten bytes
    // carry 64 bits (the text reader refuses larger numbers too).
    if (end - p >= 9) {
        for (unsigned shift = 7, i = 0; shift < 64; shift += 7, ++i) {
            const uint8_t b = p[i];
            if (shift == 63 && b > 1) fail("varint past 64 bits");
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) return {v, p + i + 1};
        }
        fail("malformed varint");  // not reached: the tenth byte ends the varint or is refused
    }
    // Fewer bytes left than a varint may take: each one checked (a varint cut off by the chunk's end).
    Cursor c{p, end};
    for (unsigned shift = 7; shift < 64; shift += 7) {
        uint8_t b = byte(c);
        if (shift == 63 && b > 1) fail("varint past 64 bits");
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return {v, c.p};
    }
    fail("malformed varint");
}

// A memory instruction's tag (op, space, size), flags, PC and mask.
BinaryReader::MemHead BinaryReader::mem_head(Cursor& c, uint8_t tag) const {
    MemHead h;
    unsigned op = (tag >> 5) & 3, space = (tag >> 3) & 3, lg = tag & 7;
    if (op > 2 || lg > 4) fail("bad memory record tag");
    h.op = Op(op);
    h.space = Space(space);
    h.bytes = uint8_t(1u << lg);
    uint8_t flags = byte(c);
    h.enc = (flags >> 1) & 3;
    if (h.enc > EncList || (flags & ~7u)) fail("bad memory record flags");
    h.all = flags & 1;
    h.pc = varint(c);
    h.mask = 0;
    if (!h.all) {
        h.mask = varint(c);
        if (h.mask == 0) fail("memory record with an empty lane mask");
    }
    return h;
}

// A list's address count: count-prefixed so a record decodes without its wave's context (TraceStream
// checks it against the resolved mask).
uint64_t BinaryReader::list_count(Cursor& c) const {
    const uint64_t n = varint(c);
    if (n == 0 || n > 64) fail("bad address count");
    return n;
}

void BinaryReader::list_addrs(Cursor& c, uint64_t* a, uint64_t n) const {
    uint64_t prev = 0;
    for (uint64_t i = 0; i < n; ++i) prev = a[i] = prev + uint64_t(unzigzag(varint(c)));
}

// A memory instruction record after its tag.
void BinaryReader::decode_mem(Cursor& c, uint8_t tag, Record& r) {
    MemAccess& m = r.mem;
    r.kind = RecKind::Mem;
    const MemHead h = mem_head(c, tag);
    m.op = h.op, m.space = h.space, m.bytes = h.bytes, m.mask_all = h.all, m.pc = h.pc, m.mask = h.mask;
    if (h.enc == EncList) {
        m.mode = AddrMode::List;
        m.base = 0, m.stride = 0;
        m.addrs.resize(list_count(c));
        list_addrs(c, m.addrs.data(), m.addrs.size());
    } else {
        m.mode = AddrMode::Affine;
        m.addrs.clear();
        m.base = varint(c);
        m.stride = h.enc == EncAffine ? unzigzag(varint(c)) : 0;
    }
}

void BinaryReader::decode_host(Cursor& c, uint8_t tag, Record& r) const {
    HostCall& h = r.host;
    if (tag == TCopy) {
        r.kind = RecKind::Copy;
        const uint8_t f = byte(c);
        if ((f & 3) > 2 || (f >> 2 & 7) > 4 || (f & 0x80)) fail("bad copy flags");
        h.dir = CopyDir(f & 3), h.mem = HostMemKind(f >> 2 & 7), h.async = f >> 5 & 1, h.has_stream = f >> 6 & 1;
        h.bytes = varint(c);
        if (h.has_stream) h.stream = varint(c);
    } else if (tag == TSync) {
        r.kind = RecKind::Sync;
        const uint8_t f = byte(c);
        if (f > 1) fail("bad sync flags");
        h.has_stream = f;
        if (h.has_stream) h.stream = varint(c);
    } else if (tag == THost) {
        r.kind = RecKind::Host;
        h.ns = varint(c);
    } else {
        r.kind = RecKind::Map;
        h.base = varint(c);
        h.bytes = varint(c);
    }
}

// r = Record{}, keeping the buffers of its address list and strings (no allocation per record).
static void reset(Record& r) {
    if (r.kind == RecKind::Kernel || !r.kernel.name.empty()) r.kernel = KernelInfo{};
    std::vector<uint64_t> addrs;
    addrs.swap(r.mem.addrs);
    r.mem = MemAccess{};
    addrs.clear();
    r.mem.addrs.swap(addrs);
    r.kind = RecKind::End;
    r.wave_size = r.block = r.wave = r.pc = r.count = r.long_count = r.mid_count = r.lds_count = r.stall = r.keep = 0;
    r.has_pc = false;
    r.pc_flags = 0;
    r.pc_line.clear();
    r.host = HostCall{};
}

// The next chunk when the current one is used up; false at the end marker.
bool BinaryReader::refill() {
    if (ended_) return false;
    while (left_in_chunk_ == 0) {
        if (pos_ != raw_.size()) fail("chunk holds more bytes than its records");
        if (!load_chunk()) return false;
    }
    return true;
}

// The instructions of a wave, nearly every record of a trace, set every field of their kind
// (Record::operator== compares no other), empty the address list and clear the wait's PC flag,
// and leave the other numbers as they were; every other kind starts from a blank record.
bool BinaryReader::next(Record& r) {
    if (left_in_chunk_ == 0 && !refill()) return false;
    --left_in_chunk_;
    ++records_;
    Cursor c = cursor();
    const uint8_t tag = byte(c);
    r.has_pc = false;  // a wait's flag: set again below for a wait with a PC
    if (tag & kMemBit) {
        decode_mem(c, tag, r);
    } else {
        r.mem.addrs.clear();
        if (!decode_plain(c, tag, r)) next_other(c, tag, r);
    }
    advance_to(c);
    return true;
}

// A barrier, wait or compute record's fields after its tag, into a Record or an Instr; false for any
// other tag.
template <typename T>
bool BinaryReader::decode_plain(Cursor& c, uint8_t tag, T& x) const {
    switch (tag) {
        case TBarrier: x.kind = RecKind::Barrier; x.pc = varint(c); return true;
        case TWait: {
            x.kind = RecKind::Wait;
            const uint8_t flags = byte(c);
            if (flags & ~uint8_t(WaitHasPc | WaitHasKeep)) fail("bad wait flags");
            if constexpr (std::is_same_v<T, Record>) x.has_pc = flags & WaitHasPc;
            x.pc = flags & WaitHasPc ? varint(c) : 0;
            x.keep = flags & WaitHasKeep ? varint(c) : 0;
            return true;
        }
        case TCompute:
        case TComputeLong:
        case TComputeMid:
        case TComputeLds:
        case TComputeStall: x.kind = RecKind::Compute; compute_fields(c, tag, x); return true;
        default: return false;
    }
}

size_t BinaryReader::next_instrs(std::vector<Instr>& instrs, std::vector<uint64_t>& pool, uint64_t full_mask) {
    Cursor c = cursor();
    const uint32_t left = left_in_chunk_;
    size_t n = 0;
    for (; n < left; ++n) {
        const uint8_t* at = c.p;
        if (!decode_instr(c, instrs.emplace_back(), pool, full_mask)) {
            instrs.pop_back();
            c.p = at;  // next() reads it again
            break;
        }
    }
    advance_to(c);
    left_in_chunk_ -= uint32_t(n);
    records_ += n;
    return n;
}

// One record into `in`, as next() and TraceStream's checks would take it: false for a record of
// another kind, or one they refuse. A record next() cannot decode fails here as it would there.
bool BinaryReader::decode_instr(Cursor& c, Instr& in, std::vector<uint64_t>& pool, uint64_t full_mask) const {
    const uint8_t tag = byte(c);
    if (tag & kMemBit) {
        const MemHead h = mem_head(c, tag);
        in.kind = RecKind::Mem;
        in.op = h.op, in.space = h.space, in.bytes = h.bytes, in.pc = h.pc;
        in.mask = h.all ? full_mask : h.mask;
        if (!h.all && (h.mask & ~full_mask)) return false;
        if (h.enc == EncList) {
            in.mode = AddrMode::List;
            const uint64_t count = list_count(c);
            in.base = pool.size();
            pool.resize(pool.size() + count);
            list_addrs(c, pool.data() + in.base, count);
            if (count == popcount64(in.mask) && listed_lanes_fit(in.space, in.bytes, pool.data() + in.base, count)) return true;
            pool.resize(in.base);
            return false;
        }
        in.mode = AddrMode::Affine;
        in.base = varint(c);
        in.stride = h.enc == EncAffine ? unzigzag(varint(c)) : 0;
        return affine_lanes_fit(in.space, in.bytes, in.mask, in.base, in.stride);
    }
    return decode_plain(c, tag, in) && (in.kind != RecKind::Compute || compute_counts_ok(in.count, in.long_count, in.mid_count, in.lds_count));
}

bool BinaryReader::next_other(Cursor& c, uint8_t tag, Record& r) {
    reset(r);
    switch (tag) {
        case TWaveSize: r.kind = RecKind::WaveSize; r.wave_size = varint(c); break;
        case TKernel: {
            r.kind = RecKind::Kernel;
            KernelInfo& k = r.kernel;
            uint64_t len = varint(c);
            if (len > uint64_t(c.end - c.p)) fail("kernel name runs past the end of its chunk");
            k.name.assign(reinterpret_cast<const char*>(c.p), len);
            c.p += len;
            // Every value as encoded: TraceStream applies the ranges (shared with the text reader).
            for (uint64_t* d : {&k.grid.x, &k.grid.y, &k.grid.z, &k.block.x, &k.block.y, &k.block.z}) *d = varint(c);
            k.present = byte(c);
            if (k.present & ~unsigned(KernelInfo::kAllAttributes)) fail("bad kernel attribute flags");
            if (k.present & KernelInfo::HasLds) k.lds_bytes = varint(c);
            if (k.present & KernelInfo::HasVgprs) k.vgprs = varint(c);
            if (k.present & KernelInfo::HasSgprs) k.sgprs = varint(c);
            if (k.present & KernelInfo::HasScratch) k.scratch_bytes = varint(c);
            if (k.present & KernelInfo::HasStream) k.stream = varint(c);
            if (k.present & KernelInfo::HasCarveout) k.carveout_pct = varint(c);
            break;
        }
        case TCopy:
        case TSync:
        case THost:
        case TMap: decode_host(c, tag, r); break;
        case TWave: r.kind = RecKind::Wave; r.block = varint(c); r.wave = varint(c); break;
        case TEnd: r.kind = RecKind::End; break;
        case TPcInfo:
            r.kind = RecKind::PcInfo;
            r.pc = varint(c);
            r.pc_flags = byte(c);
            if (!pc_flags_valid(r.pc_flags)) fail("bad pc attribute flags");
            if (r.pc_flags & PcHasLine) {
                uint64_t len = varint(c);
                if (len > uint64_t(c.end - c.p)) fail("source line runs past the end of its chunk");
                r.pc_line.assign(reinterpret_cast<const char*>(c.p), len);
                c.p += len;
            }
            break;
        default: fail("unknown record tag " + std::to_string(tag));
    }
    return true;
}

}  // namespace dcusim::trace
