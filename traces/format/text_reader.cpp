#include "text_reader.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace dcusim::trace {

TextReader::TextReader(std::unique_ptr<std::istream> in, std::string name)
    : in_(std::move(in)), name_(std::move(name)) {}

std::unique_ptr<TextReader> TextReader::open(const std::string& path) {
    auto f = std::make_unique<std::ifstream>(path);
    if (!*f) throw TraceError(path + ": cannot open trace file");
    return std::make_unique<TextReader>(std::move(f), path);
}

void TextReader::fail(const std::string& what) const { throw TraceError(where() + ": " + what); }

void TextReader::need(size_t n, const char* usage) const {
    if (tok_.size() != n) fail(std::string("expected '") + usage + "'");
}

// Decimal or 0x-hex, unsigned, full 64-bit range.
static bool parse_u64(const std::string& s, uint64_t& v) {
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    const char* p = s.c_str();
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; p += 2; }
    char* end = nullptr;
    errno = 0;
    unsigned long long x = std::strtoull(p, &end, base);
    if (errno != 0 || end == p || *end != '\0') return false;
    v = x;
    return true;
}

uint64_t TextReader::number(size_t i, const char* what) const {
    uint64_t v;
    if (!parse_u64(tok_[i], v)) fail(std::string("bad ") + what + " '" + tok_[i] + "'");
    return v;
}

int64_t TextReader::signed_number(size_t i, const char* what) const {
    const std::string& s = tok_[i];
    bool neg = !s.empty() && s[0] == '-';
    uint64_t v;
    if (!parse_u64(neg ? s.substr(1) : s, v) || v > (neg ? (1ull << 63) : (1ull << 63) - 1))
        fail(std::string("bad ") + what + " '" + s + "'");
    return neg ? int64_t(0 - v) : int64_t(v);
}

void TextReader::parse_kernel(Record& r) const {
    // kernel NAME grid GX GY GZ block BX BY BZ [lds B] [vgprs N] [sgprs N] [scratch B] [stream S] [carveout PCT]
    const char* usage = "kernel NAME grid GX GY GZ block BX BY BZ [lds BYTES] [vgprs N] [sgprs N] [scratch BYTES] [stream S] [carveout PCT]";
    if (tok_.size() < 10 || tok_[2] != "grid" || tok_[6] != "block") fail(std::string("expected '") + usage + "'");
    KernelInfo& k = r.kernel;
    k = KernelInfo{};
    k.name = tok_[1];
    // Ranges are TraceStream's (shared with the binary reader): here only the syntax.
    auto dim = [&](size_t i) { return number(i, "dimension"); };
    k.grid = {dim(3), dim(4), dim(5)};
    k.block = {dim(7), dim(8), dim(9)};
    for (size_t i = 10; i < tok_.size(); i += 2) {
        const std::string& key = tok_[i];
        if (i + 1 >= tok_.size()) fail("'" + key + "' needs a value");
        uint64_t v = number(i + 1, key.c_str());
        uint8_t bit;
        if (key == "lds") { k.lds_bytes = v; bit = KernelInfo::HasLds; }
        else if (key == "vgprs") { k.vgprs = v; bit = KernelInfo::HasVgprs; }
        else if (key == "sgprs") { k.sgprs = v; bit = KernelInfo::HasSgprs; }
        else if (key == "scratch") { k.scratch_bytes = v; bit = KernelInfo::HasScratch; }
        else if (key == "stream") { k.stream = v; bit = KernelInfo::HasStream; }
        else if (key == "carveout") { k.carveout_pct = v; bit = KernelInfo::HasCarveout; }
        else fail("unknown kernel attribute '" + key + "' (lds, vgprs, sgprs, scratch, stream, carveout)");
        if (k.present & bit) fail("'" + key + "' given twice");
        k.present |= bit;
    }
}

void TextReader::parse_mem(Record& r) const {
    // OP SPACE BYTES PC MASK affine BASE STRIDE | OP SPACE BYTES PC MASK list A0 A1 ...
    MemAccess& m = r.mem;
    m = MemAccess{};
    const std::string& op = tok_[0];
    m.op = op == "ld" ? Op::Load : op == "st" ? Op::Store : Op::Atomic;
    if (tok_.size() < 6) fail("expected 'OP SPACE BYTES PC MASK affine BASE STRIDE' or 'OP SPACE BYTES PC MASK list A0 A1 ...'");
    const std::string& sp = tok_[1];
    if (sp == "global") m.space = Space::Global;
    else if (sp == "lds") m.space = Space::Lds;
    else if (sp == "const") m.space = Space::Const;
    else if (sp == "local") m.space = Space::Local;
    else fail("unknown space '" + sp + "' (global, lds, const, local)");
    uint64_t b = number(2, "access size");
    if (b != 1 && b != 2 && b != 4 && b != 8 && b != 16) fail("access size must be 1, 2, 4, 8 or 16 bytes, not " + tok_[2]);
    m.bytes = uint8_t(b);
    m.pc = number(3, "pc");
    if (tok_[4] == "all") {
        m.mask_all = true;
    } else {
        if (tok_[4].size() < 3 || tok_[4][0] != '0' || (tok_[4][1] != 'x' && tok_[4][1] != 'X'))
            fail("mask must be 'all' or 0x-hex, not '" + tok_[4] + "'");
        m.mask = number(4, "mask");
    }
    const std::string& mode = tok_[5];
    if (mode == "affine") {
        need(8, "OP SPACE BYTES PC MASK affine BASE STRIDE");
        m.mode = AddrMode::Affine;
        m.base = number(6, "base address");
        m.stride = signed_number(7, "stride");
    } else if (mode == "list") {
        m.mode = AddrMode::List;
        m.addrs.reserve(tok_.size() - 6);
        for (size_t i = 6; i < tok_.size(); ++i) m.addrs.push_back(number(i, "address"));
        if (m.addrs.empty()) fail("'list' needs one address per active lane");
        // The count against the mask is checked here for explicit masks and by
        // TraceStream once `all` is resolved.
        if (!m.mask_all && m.addrs.size() != popcount64(m.mask))
            fail("list has " + std::to_string(m.addrs.size()) + " addresses for " +
                 std::to_string(popcount64(m.mask)) + " active lanes");
    } else {
        fail("address mode must be 'affine' or 'list', not '" + mode + "'");
    }
}

// copy h2d|d2h|d2d BYTES pageable|pinned|wc|mapped|device [stream S] [async]
void TextReader::parse_copy(Record& r) const {
    const char* usage = "copy h2d|d2h|d2d BYTES pageable|pinned|wc|mapped|device [stream S] [async]";
    if (tok_.size() < 4) fail(std::string("expected '") + usage + "'");
    HostCall& h = r.host;
    const std::string& dir = tok_[1];
    if (dir == "h2d") h.dir = CopyDir::H2D;
    else if (dir == "d2h") h.dir = CopyDir::D2H;
    else if (dir == "d2d") h.dir = CopyDir::D2D;
    else fail("unknown copy direction '" + dir + "' (h2d, d2h, d2d)");
    h.bytes = number(2, "copy size");
    const std::string& mem = tok_[3];
    bool known = false;
    for (HostMemKind m : {HostMemKind::Pageable, HostMemKind::Pinned, HostMemKind::WriteCombined, HostMemKind::Mapped, HostMemKind::Device})
        if (mem == host_mem_name(m)) h.mem = m, known = true;
    if (!known) fail("unknown host memory kind '" + mem + "' (pageable, pinned, wc, mapped, device)");
    for (size_t i = 4; i < tok_.size(); ++i) {
        if (tok_[i] == "async" && !h.async) h.async = true;
        else if (tok_[i] == "stream" && !h.has_stream && i + 1 < tok_.size()) h.has_stream = true, h.stream = number(++i, "stream");
        else fail(std::string("expected '") + usage + "', not '" + tok_[i] + "'");
    }
}

// sync [stream S] | host NS | map BASE BYTES
void TextReader::parse_host(Record& r) const {
    HostCall& h = r.host;
    if (r.kind == RecKind::Sync) {
        if (tok_.size() != 1 && !(tok_.size() == 3 && tok_[1] == "stream")) fail("expected 'sync [stream S]'");
        h.has_stream = tok_.size() == 3;
        if (h.has_stream) h.stream = number(2, "stream");
    } else if (r.kind == RecKind::Host) {
        need(2, "host NS");
        h.ns = number(1, "host time");
    } else {
        need(3, "map BASE BYTES");
        h.base = number(1, "base address");
        h.bytes = number(2, "mapped size");
    }
}

void TextReader::parse_statement(const std::string& kw, Record& r) const {
    if (kw == "wave_size") {
        need(2, "wave_size 32|64");
        r.kind = RecKind::WaveSize;
        r.wave_size = number(1, "wave size");
    } else if (kw == "kernel") {
        r.kind = RecKind::Kernel;
        parse_kernel(r);
    } else if (kw == "wave") {
        need(3, "wave BLOCK WAVE");
        r.kind = RecKind::Wave;
        r.block = number(1, "block");
        r.wave = number(2, "wave");
    } else if (kw == "ld" || kw == "st" || kw == "atom") {
        r.kind = RecKind::Mem;
        parse_mem(r);
    } else if (kw == "bar") {
        need(2, "bar PC");
        r.kind = RecKind::Barrier;
        r.pc = number(1, "pc");
    } else if (kw == "wait") {
        // wait [PC] [keep K]
        const bool has_keep = tok_.size() >= 3 && tok_[tok_.size() - 2] == "keep";
        const size_t n = tok_.size() - (has_keep ? 2 : 0);
        if (n > 2) fail("expected 'wait [PC] [keep K]'");
        r.kind = RecKind::Wait;
        r.has_pc = n == 2;
        if (r.has_pc) r.pc = number(1, "pc");
        if (has_keep) r.keep = number(n + 1, "memory operations kept in flight");
    } else if (kw == "compute") {
        // compute N [long L] [mid M] [lds S]
        size_t i = 2;
        const bool has_long = tok_.size() >= i + 2 && tok_[i] == "long";
        if (has_long) i += 2;
        const bool has_mid = tok_.size() >= i + 2 && tok_[i] == "mid";
        if (has_mid) i += 2;
        const size_t mid_at = i - 1;
        const size_t lds_at = i + 1;
        const bool has_lds = tok_.size() >= i + 2 && tok_[i] == "lds";
        if (has_lds) i += 2;
        const bool has_stall = tok_.size() >= i + 2 && tok_[i] == "stall";
        if (has_stall) i += 2;
        if (tok_.size() != i) fail("expected 'compute N [long L] [mid M] [lds S] [stall C]'");
        r.kind = RecKind::Compute;
        r.count = number(1, "instruction count");
        if (has_long) r.long_count = number(3, "long-latency count");
        if (has_mid) r.mid_count = number(mid_at, "middle-latency count");
        if (has_lds) r.lds_count = number(lds_at, "empty LDS instruction count");
        if (has_stall) r.stall = number(i - 1, "stall cycles");
    } else if (kw == "pc") {
        // Both attributes optional, as the grammar says: a binary trace may declare neither.
        if (tok_.size() < 2) fail("expected 'pc PC [readonly] [atomic int|float] [line FILE:LINE]'");
        r.kind = RecKind::PcInfo;
        r.pc = number(1, "pc");
        for (size_t i = 2; i < tok_.size(); ++i) {
            if (tok_[i] == "readonly") {
                r.pc_flags |= PcReadOnly;
            } else if (tok_[i] == "atomic" && i + 1 < tok_.size() && (tok_[i + 1] == "int" || tok_[i + 1] == "float")) {
                if (r.pc_flags & (PcAtomicInt | PcAtomicFloat)) fail("pc attribute 'atomic' given twice");
                r.pc_flags |= tok_[++i] == "int" ? PcAtomicInt : PcAtomicFloat;
            } else if (tok_[i] == "line" && i + 1 < tok_.size()) {
                r.pc_flags |= PcHasLine;
                r.pc_line = tok_[++i];
            } else {
                fail("unknown pc attribute '" + tok_[i] + "' (readonly, atomic int|float, line FILE:LINE)");
            }
        }
    } else if (kw == "end") {
        need(1, "end");
        r.kind = RecKind::End;
    } else if (kw == "copy") {
        r.kind = RecKind::Copy;
        parse_copy(r);
    } else if (kw == "sync" || kw == "host" || kw == "map") {
        r.kind = kw == "sync" ? RecKind::Sync : kw == "host" ? RecKind::Host : RecKind::Map;
        parse_host(r);
    } else {
        fail("unknown statement '" + kw + "'");
    }
}

bool TextReader::next(Record& r) {
    std::string line;
    while (std::getline(*in_, line)) {
        ++line_no_;
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        tok_.clear();
        std::istringstream ss(line);
        std::string t;
        while (ss >> t) tok_.push_back(t);
        if (tok_.empty()) continue;
        const std::string& kw = tok_[0];
        if (!header_seen_) {
            if (kw != "dcusim-trace") fail("first line must be 'dcusim-trace 1'");
            need(2, "dcusim-trace 1");
            if (tok_[1] != "1") fail("unsupported text trace version '" + tok_[1] + "' (this dcusim reads version 1)");
            header_seen_ = true;
            continue;
        }
        r = Record{};
        parse_statement(kw, r);
        return true;
    }
    if (in_->bad()) fail("read error");
    if (!header_seen_) throw TraceError(name_ + ": empty trace (no 'dcusim-trace 1' line)");
    return false;
}

}  // namespace dcusim::trace
