#include "binary_writer.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "binary_format.h"

namespace dcusim::trace {

namespace bin {
uint64_t fnv1a64(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}
}  // namespace bin

using namespace bin;

static void put_varint(std::vector<uint8_t>& b, uint64_t v) {
    while (v >= 0x80) {
        b.push_back(uint8_t(v) | 0x80);
        v >>= 7;
    }
    b.push_back(uint8_t(v));
}

static uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }

static void put_u32(std::ostream& o, uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    o.write(reinterpret_cast<const char*>(b), 4);
}
static void put_u64(std::ostream& o, uint64_t v) {
    put_u32(o, uint32_t(v));
    put_u32(o, uint32_t(v >> 32));
}

static unsigned log2_bytes(uint8_t b) { return b == 1 ? 0 : b == 2 ? 1 : b == 4 ? 2 : b == 8 ? 3 : 4; }

BinaryWriter::BinaryWriter(std::ostream& out, int level, size_t chunk_bytes)
    : out_(out), level_(level), chunk_bytes_(std::max<size_t>(1, std::min<size_t>(chunk_bytes, kChunkRawTarget))), cctx_(ZSTD_createCCtx()) {
    out_.write(kMagic, 8);
    put_u32(out_, kVersion);
    put_u32(out_, 0);
    auto* c = static_cast<ZSTD_CCtx*>(cctx_);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level_);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    raw_.reserve(chunk_bytes_ + 4096);
}

BinaryWriter::~BinaryWriter() { ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_)); }

void BinaryWriter::write(const Record& r) {
    check_writable(r);
    auto& b = raw_;
    switch (r.kind) {
        case RecKind::WaveSize: b.push_back(TWaveSize); put_varint(b, r.wave_size); break;
        case RecKind::Kernel: {
            const KernelInfo& k = r.kernel;
            b.push_back(TKernel);
            put_varint(b, k.name.size());
            b.insert(b.end(), k.name.begin(), k.name.end());
            for (uint64_t d : {k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z}) put_varint(b, d);
            b.push_back(k.present);
            if (k.present & KernelInfo::HasLds) put_varint(b, k.lds_bytes);
            if (k.present & KernelInfo::HasVgprs) put_varint(b, k.vgprs);
            if (k.present & KernelInfo::HasSgprs) put_varint(b, k.sgprs);
            if (k.present & KernelInfo::HasScratch) put_varint(b, k.scratch_bytes);
            if (k.present & KernelInfo::HasStream) put_varint(b, k.stream);
            if (k.present & KernelInfo::HasCarveout) put_varint(b, k.carveout_pct);
            break;
        }
        case RecKind::Copy: {
            const HostCall& h = r.host;
            b.push_back(TCopy);
            b.push_back(uint8_t(unsigned(h.dir) | unsigned(h.mem) << 2 | unsigned(h.async) << 5 | unsigned(h.has_stream) << 6));
            put_varint(b, h.bytes);
            if (h.has_stream) put_varint(b, h.stream);
            break;
        }
        case RecKind::Sync:
            b.push_back(TSync);
            b.push_back(r.host.has_stream ? 1 : 0);
            if (r.host.has_stream) put_varint(b, r.host.stream);
            break;
        case RecKind::Host: b.push_back(THost); put_varint(b, r.host.ns); break;
        case RecKind::Map: b.push_back(TMap); put_varint(b, r.host.base); put_varint(b, r.host.bytes); break;
        case RecKind::Wave: b.push_back(TWave); put_varint(b, r.block); put_varint(b, r.wave); break;
        case RecKind::Barrier: b.push_back(TBarrier); put_varint(b, r.pc); break;
        case RecKind::Wait:
            b.push_back(TWait);
            b.push_back(uint8_t((r.has_pc ? WaitHasPc : 0) | (r.keep ? WaitHasKeep : 0)));
            if (r.has_pc) put_varint(b, r.pc);
            if (r.keep) put_varint(b, r.keep);
            break;
        case RecKind::Compute: {
            // The shortest rung of the ladder that holds every field given (the count always).
            const uint64_t f[kComputeFields] = {r.count, r.long_count, r.mid_count, r.lds_count, r.stall};
            size_t n = kComputeFields;
            while (n > 1 && f[n - 1] == 0) --n;
            b.push_back(kComputeTags[n - 1]);
            for (size_t i = 0; i < n; ++i) put_varint(b, f[i]);
            break;
        }
        case RecKind::End: b.push_back(TEnd); break;
        case RecKind::PcInfo:
            b.push_back(TPcInfo);
            put_varint(b, r.pc);
            b.push_back(r.pc_flags);
            if (r.pc_flags & PcHasLine) {
                put_varint(b, r.pc_line.size());
                b.insert(b.end(), r.pc_line.begin(), r.pc_line.end());
            }
            break;
        case RecKind::Mem: {
            const MemAccess& m = r.mem;
            b.push_back(uint8_t(kMemBit | (unsigned(m.op) << 5) | (unsigned(m.space) << 3) | log2_bytes(m.bytes)));
            AddrEnc enc = m.mode == AddrMode::List ? EncList : m.stride == 0 ? EncUniform : EncAffine;
            b.push_back(uint8_t((m.mask_all ? 1 : 0) | (enc << 1)));
            put_varint(b, m.pc);
            if (!m.mask_all) put_varint(b, m.mask);
            if (enc == EncList) {
                put_varint(b, m.addrs.size());
                uint64_t prev = 0;  // deltas keep neighbouring lanes' addresses short
                for (uint64_t a : m.addrs) {
                    put_varint(b, zigzag(int64_t(a - prev)));
                    prev = a;
                }
            } else {
                put_varint(b, m.base);
                if (enc == EncAffine) put_varint(b, zigzag(m.stride));
            }
            break;
        }
    }
    ++records_in_chunk_;
    ++records_;
    if (raw_.size() >= chunk_bytes_) flush_chunk();
}

void BinaryWriter::flush_chunk() {
    if (records_in_chunk_ == 0) return;
    packed_.resize(ZSTD_compressBound(raw_.size()));
    size_t n = ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), packed_.data(), packed_.size(), raw_.data(), raw_.size());
    if (ZSTD_isError(n)) throw TraceError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    put_u32(out_, kChunkTag);
    put_u32(out_, uint32_t(raw_.size()));
    put_u32(out_, uint32_t(n));
    put_u32(out_, records_in_chunk_);
    put_u64(out_, fnv1a64(packed_.data(), n));
    out_.write(reinterpret_cast<const char*>(packed_.data()), std::streamsize(n));
    raw_.clear();
    records_in_chunk_ = 0;
    ++chunks_;
}

std::string BinaryWriter::seal(const std::vector<uint8_t>& raw, uint32_t records) {
    std::ostringstream o;
    BinaryWriter w(o);
    w.raw_ = raw;
    w.records_in_chunk_ = records;
    w.records_ = records;
    w.finish();
    return o.str();
}

void BinaryWriter::finish() {
    flush_chunk();
    put_u32(out_, kEndTag);
    put_u32(out_, 0);
    put_u32(out_, 0);
    put_u32(out_, chunks_);
    put_u64(out_, records_);
    out_.flush();
    if (!out_) throw TraceError("write error");
}

}  // namespace dcusim::trace
