// dcusim-tracegen: writes synthetic traces for benchmarks and self-checks.
//   dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT
// OUT ending in .trace is text, anything else binary. Deterministic: the same
// arguments give the same file.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "../format/binary_writer.h"
#include "../format/sink.h"

using namespace dcusim::trace;

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
void lds_const(RecordSink& out, uint64_t blocks, uint32_t waves, uint64_t iters, uint32_t ws) {
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

[[noreturn]] void usage() {
    std::cerr << "usage: dcusim-tracegen lds-const [--blocks N] [--waves W] [--iters I] [--wave-size 32|64] -o OUT\n";
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) usage();
    std::string pattern = argv[1], out_path;
    uint64_t blocks = 64, iters = 100;
    uint32_t waves = 4, ws = 64;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> uint64_t {
            if (i + 1 >= argc) usage();
            char* end = nullptr;
            uint64_t v = std::strtoull(argv[++i], &end, 10);
            if (*end || v == 0) usage();
            return v;
        };
        if (a == "-o") { if (i + 1 >= argc) usage(); out_path = argv[++i]; }
        else if (a == "--blocks") blocks = val();
        else if (a == "--waves") waves = uint32_t(val());
        else if (a == "--iters") iters = val();
        else if (a == "--wave-size") ws = uint32_t(val());
        else usage();
    }
    if (out_path.empty() || (ws != 32 && ws != 64) || pattern != "lds-const") usage();
    std::ofstream f(out_path, std::ios::binary | std::ios::trunc);
    if (!f) {
        std::cerr << "dcusim-tracegen: " << out_path << ": cannot write\n";
        return 2;
    }
    bool text = out_path.size() > 6 && out_path.compare(out_path.size() - 6, 6, ".trace") == 0;
    std::unique_ptr<RecordSink> sink;
    if (text) sink = std::make_unique<TextWriter>(f);
    else sink = std::make_unique<BinaryWriter>(f);
    Record r;
    r.kind = RecKind::WaveSize;
    r.wave_size = ws;
    sink->write(r);
    lds_const(*sink, blocks, waves, iters, ws);
    sink->finish();
    return 0;
}
