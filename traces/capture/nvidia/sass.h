// Static facts about the machine code of a kernel, read from the
// disassembler's text (`nvdisasm -c -g`) and resource report
// (`cuobjdump -res-usage`). They turn a stream of captured memory
// instructions into `compute N` and `wait` records (docs/CAPTURE.md):
// which instructions lie between two memory instructions, and which of them
// read a register that an outstanding load writes.
#pragma once

#include <bitset>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/format/record.h"

namespace dcutrace {

using RegSet = std::bitset<256>;

struct SassInstr {
    uint32_t offset = 0;     // bytes from the function's start
    std::string opcode;      // with modifiers, e.g. LDG.E.128
    bool anchor = false;     // captured itself (memory access or barrier): not counted as compute
    bool load = false;       // its destination registers fill when memory answers
    bool readonly = false;   // non-coherent global load (LDG.E.CONSTANT)
    // An atomic's operands (ATOM, ATOMG, ATOMS, RED, REDG): floating point where a modifier names a float
    // type (.F16, .BF16, .F32, .F64: REDG.E.ADD.F32.FTZ.RN.STRONG.GPU), else integer; Unknown: not an atomic.
    dcusim::trace::AtomicKind atomic = dcusim::trace::AtomicKind::Unknown;
    bool exit = false;
    bool long_latency = false;  // its result comes later than an ALU instruction's: conversions, MUFU
    bool mid_latency = false;   // later than an ALU's, sooner than those: IMAD.HI
    bool call = false;          // CALL: into a subroutine (the compiler's slow paths)
    bool guarded = false;    // has a predicate guard (@P0): may not execute
    bool shared = false;     // a shared-memory instruction (LDS, STS, ATOMS, LDSM, STSM)
    int branch_target = -1;  // index of the target of an unconditional or conditional branch
    RegSet reads, writes;
    std::string line;        // FILE:LINE (file name without directories), if the cubin has line info
    std::string address;     // a memory instruction's address operand as written ("[R2.64+0x10]")
    // LDL/STL at the stack pointer plus a constant ([R1+0x4c]): spill code. The Sanitizer may not report it;
    // assemble_launch then records it from here (stack_offset past R1, local_bytes a lane).
    bool stack_local = false;
    uint32_t stack_offset = 0;
    uint8_t local_bytes = 0;
    bool synth_local = false;  // set per launch: recorded from the SASS, not captured (and not an anchor)
    // The control word (`nvdisasm -hex`, Volta on: bits 41-44, 46-48 and 52-57 of its second 64-bit word):
    // the cycles the scheduler holds the warp after it, the scoreboard its result sets (7: none) and the
    // scoreboards it waits for before it issues. DEPBAR.LE SBk, n waits until at most n of k's are left.
    uint8_t stall = 0, write_barrier = 7, wait_mask = 0;
    int8_t depbar_sb = -1;
    uint8_t depbar_left = 0;
    uint8_t control_words = 0;  // encoding words read so far (2: the control word is known)
};

struct SassFunction {
    std::string name;  // as the cubin names it (mangled)
    bool control = false;  // every instruction came with its control word
    std::vector<SassInstr> instrs;
    std::vector<uint32_t> compute_before;  // prefix sums: non-anchor instructions in [0, i)
    std::map<uint32_t, int> index_of;      // offset -> instruction index

    int index(uint64_t offset) const;  // -1 if no instruction starts there
    uint32_t compute_between(int from, int to) const { return compute_before[to] - compute_before[from]; }
};

// Parses `nvdisasm -c -g [-hex]` output: every function of the module by name. With -hex, each
// instruction's encoding follows it as two 64-bit words (`/* 0x... */`, the second on a line of its own).
std::map<std::string, SassFunction> parse_sass(const std::string& text);

struct ResourceUsage {
    uint32_t regs = 0, shared = 0, local = 0, stack = 0;
};
// Parses `cuobjdump -res-usage` output: per function (mangled name).
std::map<std::string, ResourceUsage> parse_res_usage(const std::string& text);

// Which static instructions run between two consecutive captured anchors of
// one warp, as index ranges [first, last). Forward, the path follows
// unconditional branches (jumps over code it cannot run); a guarded branch is
// assumed not taken, unless what it jumps over makes a call (calls out of
// straight-line code are the compiler's slow paths: 64-bit division and
// remainder when an operand needs more than 32 bits, and the branch around one
// is the fast path), or holds an unguarded memory instruction, which the warp
// would have run and which would then have been captured (a loop's remainder
// that the trip count skipped). The later anchor may lie before the earlier one (a loop
// went round): then the path runs to the backward branch that closes the loop
// and on from its target.
struct SassPath {
    struct Range { int first, last; };
    std::vector<Range> part;
};
SassPath path_between(const SassFunction& f, int from, int to);  // from = -1: function entry
SassPath path_to_exit(const SassFunction& f, int from);

}  // namespace dcutrace
