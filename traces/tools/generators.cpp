// Synthetic trace generators (dcusim-tracegen and the self-check tests).
#include "generators.h"

#include <string>
#include <vector>

namespace dcusim::trace {

namespace {

Record mem(Op op, Space sp, uint8_t bytes, uint64_t pc, uint64_t base, int64_t stride) {
    Record r;
    r.kind = RecKind::Mem;
    r.mem.op = op;
    r.mem.space = sp;
    r.mem.bytes = bytes;
    r.mem.pc = pc;
    r.mem.mask_all = true;
    r.mem.base = base;
    r.mem.stride = stride;
    return r;
}

// Each iteration of a wave: a uniform constant load, an LDS store, a barrier
// every 8 iterations, LDS loads at a stride that cycles through conflict-free,
// 2-way and 32-way patterns, a 4-address constant load, a little compute.
// 8 wave instructions per iteration besides compute.
// A memory record from per-lane addresses (lane i of `addrs` is lane i of the
// wave; `mask` says which are active), as uniform or affine when the active
// lanes allow it, else as a list.
Record lanes_mem(Op op, Space sp, uint8_t bytes, uint64_t pc, const std::vector<uint64_t>& addrs, uint64_t mask,
                 uint64_t full_mask) {
    Record r = mem(op, sp, bytes, pc, 0, 0);
    r.mem.mask_all = mask == full_mask;
    r.mem.mask = mask;
    int first = -1, second = -1;
    for (int i = 0; i < int(addrs.size()); ++i)
        if (mask >> i & 1) {
            if (first < 0) first = i;
            else if (second < 0) second = i;
        }
    int64_t stride = second < 0 ? 0 : int64_t(addrs[second] - addrs[first]) / (second - first);
    uint64_t base = addrs[first] - uint64_t(first * stride);
    bool affine = true;
    for (int i = 0; i < int(addrs.size()); ++i)
        if ((mask >> i & 1) && addrs[i] != base + uint64_t(i * stride)) affine = false;
    if (affine) {
        r.mem.base = base;
        r.mem.stride = stride;
        return r;
    }
    r.mem.mode = AddrMode::List;
    for (int i = 0; i < int(addrs.size()); ++i)
        if (mask >> i & 1) r.mem.addrs.push_back(addrs[i]);
    return r;
}

Record simple(RecKind kind, uint64_t pc = 0, uint64_t count = 0) {
    Record r;
    r.kind = kind;
    r.pc = pc;
    r.has_pc = kind == RecKind::Wait;
    r.count = count;
    return r;
}

Record kernel_record(const std::string& name, uint32_t blocks, uint32_t threads) {
    Record k = simple(RecKind::Kernel);
    k.kernel.name = name;
    k.kernel.grid = {blocks, 1, 1};
    k.kernel.block = {threads, 1, 1};
    k.kernel.vgprs = 16;
    k.kernel.sgprs = 16;
    k.kernel.present = KernelInfo::HasVgprs | KernelInfo::HasSgprs;
    return k;
}

}  // namespace

void gen_lds_const(RecordSink& out, uint64_t blocks, uint32_t waves, uint64_t iters, uint32_t ws) {
    Record k;
    k.kind = RecKind::Kernel;
    k.kernel.name = "lds_const_mix";
    k.kernel.grid = {uint32_t(blocks), 1, 1};
    k.kernel.block = {waves * ws, 1, 1};
    k.kernel.lds_bytes = 8192;
    k.kernel.vgprs = 32;
    k.kernel.sgprs = 16;
    k.kernel.present = KernelInfo::HasLds | KernelInfo::HasVgprs | KernelInfo::HasSgprs;
    out.write(k);
    const int64_t strides[4] = {4, 8, 132, 128};
    for (uint64_t b = 0; b < blocks; ++b) {
        for (uint32_t w = 0; w < waves; ++w) {
            Record wr;
            wr.kind = RecKind::Wave;
            wr.block = b;
            wr.wave = w;
            out.write(wr);
            for (uint64_t i = 0; i < iters; ++i) {
                out.write(mem(Op::Load, Space::Const, 4, 0x100, 0x8000 + (i % 64) * 4, 0));
                out.write(mem(Op::Store, Space::Lds, 4, 0x108, uint64_t(w) * ws * 4, 4));
                if (i % 8 == 7) {
                    Record bar;
                    bar.kind = RecKind::Barrier;
                    bar.pc = 0x110;
                    out.write(bar);
                }
                out.write(mem(Op::Load, Space::Lds, 4, 0x118, (i * 4) % 4096, strides[i % 4]));
                out.write(mem(Op::Load, Space::Lds, 8, 0x120, 0, 8));
                Record c;
                c.kind = RecKind::Compute;
                c.count = 2;
                out.write(c);
                Record div = mem(Op::Load, Space::Const, 4, 0x128, 0, 0);
                div.mem.mode = AddrMode::List;
                div.mem.mask_all = false;
                div.mem.mask = 0xf;
                div.mem.addrs = {0x9000, 0x9040, 0x9080, 0x90c0};
                out.write(div);
                out.write(mem(Op::Load, Space::Lds, 16, 0x130, 0, 16));
                out.write(mem(Op::Store, Space::Lds, 4, 0x138, 4096 + uint64_t(w) * 64, 0));
                if (i % 8 == 7) {
                    Record wt;
                    wt.kind = RecKind::Wait;
                    out.write(wt);
                }
            }
        }
    }
    Record e;
    e.kind = RecKind::End;
    out.write(e);
}



// Constant-memory divergence: one kernel per k in 1, 2, 4, ..., wave size;
// each wave reads coeff[lane % k] from a __constant__ array 16 times in a loop
// and uses it at once.
void gen_constant(RecordSink& out, uint32_t ws) {
    const uint64_t coeff = 0x7f000000;
    const uint64_t full = ws == 64 ? ~0ull : 0xffffffffull;
    for (uint32_t k = 1; k <= ws; k *= 2) {
        Record kr = simple(RecKind::Kernel);
        kr.kernel.name = "const_k" + std::to_string(k);
        kr.kernel.grid = {4, 1, 1};
        kr.kernel.block = {ws, 1, 1};
        out.write(kr);
        for (uint64_t b = 0; b < 4; ++b) {
            Record wr = simple(RecKind::Wave);
            wr.block = b;
            out.write(wr);
            std::vector<uint64_t> a(ws);
            for (uint32_t l = 0; l < ws; ++l) a[l] = coeff + (l % k) * 4;
            for (int i = 0; i < 16; ++i) {  // the value is used right away: a wait after each load
                out.write(lanes_mem(Op::Load, Space::Const, 4, 0x100, a, full, full));
                out.write(simple(RecKind::Wait, 0x108));
                out.write(simple(RecKind::Compute, 0, 4));
            }
        }
        out.write(simple(RecKind::End));
    }
}

// The classic tiled transpose of an N x N float matrix: 32 x 32 tiles, blocks
// of 32 x 8 threads, each thread moving 4 elements through LDS. Two kernels:
// tile[32][32] (the column reads hit one bank) and the padded tile[32][33].
void gen_transpose(RecordSink& out, uint32_t n, uint32_t ws) {
    const uint64_t in_base = 0x10000000, out_base = 0x20000000;
    const uint32_t threads = 32 * 8, waves = threads / ws, tiles = n / 32;
    const uint64_t full = ws == 64 ? ~0ull : 0xffffffffull;
    for (uint32_t width : {32u, 33u}) {
        Record k = simple(RecKind::Kernel);
        k.kernel.name = width == 32 ? "transpose_tile32" : "transpose_tile33_padded";
        k.kernel.grid = {tiles, tiles, 1};
        k.kernel.block = {32, 8, 1};
        k.kernel.lds_bytes = 32 * width * 4;
        k.kernel.vgprs = 16;
        k.kernel.sgprs = 16;
        k.kernel.present = KernelInfo::HasLds | KernelInfo::HasVgprs | KernelInfo::HasSgprs;
        out.write(k);
        // Where each memory instruction comes from in the HIP source (validation/kernels/ to come).
        const std::pair<uint64_t, int> lines[] = {{0x100, 14}, {0x180, 14}, {0x200, 19}, {0x280, 19}};
        for (const auto& [pc0, line] : lines)
            for (uint32_t j = 0; j < 32; j += 8) {
                Record pi = simple(RecKind::PcInfo, pc0 + j);
                pi.pc_flags = PcHasLine;
                pi.pc_line = std::string(width == 32 ? "transpose.hip:" : "transpose_padded.hip:") + std::to_string(line);
                out.write(pi);
            }
        for (uint32_t by = 0; by < tiles; ++by)
            for (uint32_t bx = 0; bx < tiles; ++bx)
                for (uint32_t w = 0; w < waves; ++w) {
                    Record wr = simple(RecKind::Wave);
                    wr.block = uint64_t(by) * tiles + bx;
                    wr.wave = w;
                    out.write(wr);
                    out.write(simple(RecKind::Compute, 0, 8));  // indices
                    std::vector<uint64_t> a(ws);
                    auto emit = [&](Op op, Space sp, uint64_t pc, auto addr_of) {
                        for (uint32_t j = 0; j < 32; j += 8) {
                            for (uint32_t l = 0; l < ws; ++l) {
                                uint32_t t = w * ws + l, tx = t % 32, ty = t / 32;
                                a[l] = addr_of(tx, ty, j);
                            }
                            out.write(lanes_mem(op, sp, 4, pc + j, a, full, full));
                        }
                    };
                    emit(Op::Load, Space::Global, 0x100, [&](uint32_t tx, uint32_t ty, uint32_t j) {
                        return in_base + (uint64_t(by * 32 + ty + j) * n + bx * 32 + tx) * 4;
                    });
                    out.write(simple(RecKind::Wait, 0x140));
                    emit(Op::Store, Space::Lds, 0x180,
                         [&](uint32_t tx, uint32_t ty, uint32_t j) { return uint64_t((ty + j) * width + tx) * 4; });
                    out.write(simple(RecKind::Barrier, 0x1c0));
                    emit(Op::Load, Space::Lds, 0x200,
                         [&](uint32_t tx, uint32_t ty, uint32_t j) { return uint64_t(tx * width + ty + j) * 4; });
                    out.write(simple(RecKind::Wait, 0x240));
                    emit(Op::Store, Space::Global, 0x280, [&](uint32_t tx, uint32_t ty, uint32_t j) {
                        return out_base + (uint64_t(bx * 32 + ty + j) * n + by * 32 + tx) * 4;
                    });
                }
        out.write(simple(RecKind::End));
    }
}


// Pointer chase: one lane of one wave loads 8 bytes and waits for them before
// the next load, `loads` times, at addresses base + (i * stride) mod footprint.
void gen_chase(RecordSink& out, uint64_t footprint, uint64_t stride, uint64_t loads, uint32_t ws, uint64_t base) {
    out.write(kernel_record("pointer_chase", 1, ws));
    Record wr = simple(RecKind::Wave);
    out.write(wr);
    for (uint64_t i = 0; i < loads; ++i) {
        Record m = mem(Op::Load, Space::Global, 8, 0x100, base + (i * stride) % footprint, 0);
        m.mem.mask_all = false;
        m.mem.mask = 1;
        out.write(m);
        out.write(simple(RecKind::Wait, 0x108));
    }
    out.write(simple(RecKind::End));
}

// Streaming read of `bytes`: every lane loads `lane_bytes` per instruction,
// consecutive lanes consecutive addresses; wave-sized chunks go round robin
// to the waves of all blocks; each wave issues all its loads, then waits.
// With passes > 1 the buffer is read again after a wait.
void gen_stream(RecordSink& out, uint64_t bytes, uint32_t blocks, uint32_t waves, uint32_t lane_bytes, uint32_t passes,
            uint32_t ws, bool write) {
    const uint64_t base = 0x200000000ull, chunk = uint64_t(ws) * lane_bytes, chunks = (bytes + chunk - 1) / chunk;
    const uint64_t all_waves = uint64_t(blocks) * waves;
    out.write(kernel_record(write ? "stream_write" : "stream_read", blocks, waves * ws));
    for (uint32_t b = 0; b < blocks; ++b)
        for (uint32_t w = 0; w < waves; ++w) {
            Record wr = simple(RecKind::Wave);
            wr.block = b;
            wr.wave = w;
            out.write(wr);
            for (uint32_t p = 0; p < passes; ++p) {
                for (uint64_t c = uint64_t(b) * waves + w; c < chunks; c += all_waves)
                    out.write(mem(write ? Op::Store : Op::Load, Space::Global, uint8_t(lane_bytes), 0x100, base + c * chunk,
                                  lane_bytes));
                out.write(simple(RecKind::Wait, 0x108));
            }
        }
    out.write(simple(RecKind::End));
}

}  // namespace dcusim::trace
