#include "sass.h"

#include <cctype>
#include <sstream>

namespace dcutrace {
namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::string base_opcode(const std::string& op) { return op.substr(0, op.find('.')); }

template <size_t N>
bool one_of(const std::string& base, const char* const (&ops)[N]) {
    for (const char* o : ops)
        if (base == o) return true;
    return false;
}

bool is_memory(const std::string& base) {
    static const char* const ops[] = {"LDG", "STG", "LDS", "STS", "LD", "ST", "LDL", "STL", "ATOM", "ATOMG",
                                      "ATOMS", "RED", "REDG", "LDSM", "LDGSTS", "STSM"};
    return one_of(base, ops);
}
// Conversions and transcendentals, which NVIDIA GPUs run outside the ALU
// pipes and whose results come later (F2I: 19-20 cycles on the H200 against
// 4, validation/results/h200-alulatency).
bool is_long_latency(const std::string& base) {
    static const char* const ops[] = {"F2I", "I2F", "F2F", "FRND", "MUFU"};
    return one_of(base, ops);
}
// IMAD.HI: 9 cycles where IMAD takes 4 (validation/results/h200-alulatency).
// IMAD.WIDE measured 6 to 10 depending on which word is used next, and the
// load latencies of the presets come from chases whose address step is one
// IMAD.WIDE taken at 4: it stays an ALU instruction.
bool is_mid_latency(const std::string& opcode) { return starts_with(opcode, "IMAD.HI"); }
// An atomic's operands: floating point where a modifier names a float type, else integer.
dcusim::trace::AtomicKind atomic_kind(const std::string& base, const std::string& opcode) {
    using dcusim::trace::AtomicKind;
    static const char* const ops[] = {"ATOM", "ATOMG", "ATOMS", "RED", "REDG"};
    if (!one_of(base, ops)) return AtomicKind::Unknown;
    for (size_t dot = opcode.find('.'); dot != std::string::npos; dot = opcode.find('.', dot + 1)) {
        const std::string mod = opcode.substr(dot + 1, opcode.find('.', dot + 1) - dot - 1);
        if (starts_with(mod, "F16") || starts_with(mod, "BF16") || starts_with(mod, "F32") || starts_with(mod, "F64"))
            return AtomicKind::Float;
    }
    return AtomicKind::Int;
}
bool writes_memory_only(const std::string& base) {  // stores: every register operand is read
    return base == "STG" || base == "STS" || base == "ST" || base == "STL" || base == "RED" || base == "REDG" ||
           base == "STSM";
}

// Registers an opcode's width modifiers make a register operand span.
int width_regs(const std::string& opcode) {
    if (opcode.find(".128") != std::string::npos) return 4;
    if (opcode.find(".64") != std::string::npos || opcode.find(".WIDE") != std::string::npos) return 2;
    return 1;
}

// Adds the registers named in `operand` (R12, [R4.64+0x10], desc[UR4][R2.64]).
void add_regs(const std::string& operand, int width, RegSet& set) {
    for (size_t i = 0; i < operand.size(); ++i) {
        if (operand[i] != 'R' || (i > 0 && (std::isalnum(uint8_t(operand[i - 1])) || operand[i - 1] == '_'))) continue;
        size_t j = i + 1;
        unsigned n = 0;
        while (j < operand.size() && std::isdigit(uint8_t(operand[j]))) n = n * 10 + unsigned(operand[j++] - '0');
        if (j == i + 1) continue;  // RZ, or a name
        int w = width;
        if (operand.compare(j, 3, ".64") == 0) w = 2;
        for (int k = 0; k < w && n + unsigned(k) < 255; ++k) set.set(n + unsigned(k));
        i = j;
    }
}

std::vector<std::string> split_operands(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// Bytes a lane of a local load or store moves, from its width modifier.
uint8_t local_access_bytes(const std::string& opcode) {
    if (opcode.find(".128") != std::string::npos) return 16;
    if (opcode.find(".64") != std::string::npos) return 8;
    if (opcode.find(".U16") != std::string::npos || opcode.find(".S16") != std::string::npos) return 2;
    if (opcode.find(".U8") != std::string::npos || opcode.find(".S8") != std::string::npos) return 1;
    return 4;
}

// An LDL/STL addressed [R1] or [R1+0xNN] (R1 is the stack pointer the ABI keeps): spill and frame slots.
void parse_stack_local(SassInstr& in) {
    const std::string& a = in.address;
    if (a.rfind("[R1", 0) != 0 || a.size() < 4 || std::isdigit(uint8_t(a[3]))) return;
    uint32_t off = 0;
    if (a[3] == '+') {
        if (a.compare(4, 2, "0x") != 0) return;
        size_t used = 0;
        try {
            off = uint32_t(std::stoul(a.substr(6), &used, 16));
        } catch (...) {
            return;
        }
        if (6 + used + 1 != a.size()) return;  // more than one constant: not a plain frame slot
    } else if (a != "[R1]") {
        return;
    }
    in.stack_local = true;
    in.stack_offset = off;
    in.local_bytes = local_access_bytes(in.opcode);
}

// An encoding word as nvdisasm -hex prints it, `/* 0x000fe20000000800 */`, searched from `from`: its
// value and hex digits (16 for a 64-bit word, 32 where one word holds the whole instruction), 0 if none.
int encoding_word(const std::string& line, size_t from, unsigned __int128& value) {
    const size_t at = line.find("/* 0x", from);
    if (at == std::string::npos) return 0;
    int digits = 0;
    value = 0;
    for (size_t i = at + 5; i < line.size() && std::isxdigit(uint8_t(line[i])); ++i, ++digits) {
        const char c = char(std::tolower(uint8_t(line[i])));
        value = value << 4 | unsigned(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return digits == 16 || digits == 32 ? digits : 0;
}

// The fields of a control word (the instruction's second 64-bit word).
void set_control(SassInstr& in, uint64_t hi) {
    in.stall = uint8_t(hi >> 41 & 15);
    in.write_barrier = uint8_t(hi >> 46 & 7);
    in.wait_mask = uint8_t(hi >> 52 & 63);
}

// DEPBAR.LE SB0, 0x2: wait until scoreboard 0 counts at most 2.
void parse_depbar(SassInstr& in, const std::string& operands) {
    const size_t sb = operands.find("SB");
    if (sb == std::string::npos || sb + 2 >= operands.size() || !std::isdigit(uint8_t(operands[sb + 2]))) return;
    const size_t comma = operands.find(',', sb);
    if (comma == std::string::npos) return;
    try {
        in.depbar_left = uint8_t(std::min(255ul, std::stoul(operands.substr(comma + 1), nullptr, 0)));
    } catch (...) {
        return;
    }
    in.depbar_sb = int8_t(operands[sb + 2] - '0');
}

// One instruction line: `/*0150*/  @!P0 LDG.E R7, desc[UR4][R6.64] ;`
bool parse_instr(const std::string& line, SassInstr& in, std::string& target_label) {
    size_t open = line.find("/*"), close = line.find("*/");
    if (open == std::string::npos || close == std::string::npos || close < open) return false;
    std::string hex = line.substr(open + 2, close - open - 2);
    if (hex.empty() || !std::isxdigit(uint8_t(hex[0]))) return false;
    in.offset = uint32_t(std::stoul(hex, nullptr, 16));
    std::string rest = line.substr(close + 2);
    size_t semi = rest.find(';');
    if (semi != std::string::npos) rest = rest.substr(0, semi);
    std::istringstream is(rest);
    std::string tok;
    if (semi != std::string::npos) {  // -hex: the first word after the semicolon, the whole 128 bits in one
        unsigned __int128 w = 0;
        const int digits = encoding_word(line, close + 2 + semi, w);
        if (digits == 32) set_control(in, uint64_t(w >> 64));
        in.control_words = uint8_t(digits / 16);
    }
    is >> tok;
    if (!tok.empty() && tok[0] == '@') {  // predicate guard
        in.guarded = true;
        is >> tok;
    }
    in.opcode = tok;
    std::string operands;
    std::getline(is, operands);
    const std::string base = base_opcode(in.opcode);
    in.anchor = is_memory(base) || base == "BAR";
    in.shared = base == "LDS" || base == "STS" || base == "ATOMS" || base == "LDSM" || base == "STSM";
    in.load = is_memory(base) && !writes_memory_only(base) && base != "LDGSTS";
    in.readonly = base == "LDG" && in.opcode.find(".CONSTANT") != std::string::npos;
    in.atomic = atomic_kind(base, in.opcode);
    in.exit = base == "EXIT";
    in.long_latency = is_long_latency(base);
    in.mid_latency = is_mid_latency(in.opcode);
    in.call = base == "CALL";
    size_t tick = operands.find("`(");
    if ((base == "BRA" || base == "BRX" || base == "JMP") && tick != std::string::npos) {
        size_t end = operands.find(')', tick);
        target_label = operands.substr(tick + 2, end - tick - 2);
    }
    if (is_memory(base)) {  // the last bracket: desc[UR4][R2.64+0x10] names the descriptor first
        const size_t open = operands.rfind('['), close = operands.find(']', open == std::string::npos ? 0 : open);
        if (open != std::string::npos && close != std::string::npos) in.address = operands.substr(open, close - open + 1);
    }
    if (base == "LDL" || base == "STL") parse_stack_local(in);
    if (base == "DEPBAR") parse_depbar(in, operands);
    std::vector<std::string> ops = split_operands(operands);
    const int width = width_regs(in.opcode);
    for (size_t k = 0; k < ops.size(); ++k) {
        bool dest = k == 0 && !writes_memory_only(base) && base != "BAR" && base != "BRA";
        if (dest && ops[k].find('[') == std::string::npos)
            add_regs(ops[k], in.load || base == "IMAD" ? width : 1, in.writes);
        else
            add_regs(ops[k], ops[k].find('[') != std::string::npos ? 1 : width, in.reads);
    }
    return true;
}

void finish(SassFunction& f, const std::map<std::string, int>& labels, const std::vector<std::string>& targets) {
    f.compute_before.assign(f.instrs.size() + 1, 0);
    for (size_t i = 0; i < f.instrs.size(); ++i) {
        auto it = labels.find(targets[i]);
        if (!targets[i].empty() && it != labels.end()) f.instrs[i].branch_target = it->second;
        f.compute_before[i + 1] = f.compute_before[i] + (f.instrs[i].anchor ? 0 : 1);
        f.index_of[f.instrs[i].offset] = int(i);
    }
    f.control = !f.instrs.empty();
    for (const auto& in : f.instrs) f.control = f.control && in.control_words == 2;
}

std::string file_line(const std::string& line) {  // //## File "/a/b/x.hip", line 19
    size_t q1 = line.find('"'), q2 = line.rfind('"'), l = line.find("line ", q2 == std::string::npos ? 0 : q2);
    if (q1 == std::string::npos || q2 == q1 || l == std::string::npos) return {};
    std::string file = line.substr(q1 + 1, q2 - q1 - 1);
    size_t slash = file.rfind('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    std::string num;
    for (size_t i = l + 5; i < line.size() && std::isdigit(uint8_t(line[i])); ++i) num += line[i];
    return num.empty() ? std::string() : file + ":" + num;
}

}  // namespace

int SassFunction::index(uint64_t offset) const {
    auto it = index_of.find(uint32_t(offset));
    return offset <= UINT32_MAX && it != index_of.end() ? it->second : -1;
}

std::map<std::string, SassFunction> parse_sass(const std::string& text) {
    std::map<std::string, SassFunction> out;
    SassFunction* cur = nullptr;
    std::map<std::string, int> labels;
    std::vector<std::string> targets;
    std::string current_line;
    std::istringstream is(text);
    std::string line;
    auto close = [&] {
        if (cur) finish(*cur, labels, targets);
        labels.clear();
        targets.clear();
        current_line.clear();
    };
    while (std::getline(is, line)) {
        size_t p = line.find_first_not_of(" \t");
        if (p == std::string::npos) continue;
        std::string t = line.substr(p);
        if (starts_with(t, ".text.") && t.back() == ':') {
            close();
            std::string name = t.substr(6, t.size() - 7);
            cur = &out[name];
            cur->name = name;
        } else if (starts_with(t, "//## File")) {
            current_line = file_line(t);
        } else if (cur && starts_with(t, ".L") && t.back() == ':') {
            labels[t.substr(0, t.size() - 1)] = int(cur->instrs.size());
        } else if (cur && starts_with(t, "/* 0x")) {  // -hex: an instruction's second word, its control
            unsigned __int128 w = 0;
            if (!cur->instrs.empty() && cur->instrs.back().control_words == 1 && encoding_word(t, 0, w) == 16) {
                set_control(cur->instrs.back(), uint64_t(w));
                cur->instrs.back().control_words = 2;
            }
        } else if (cur && starts_with(t, "/*")) {
            SassInstr in;
            std::string target;
            if (!parse_instr(t, in, target)) continue;
            in.line = current_line;
            cur->instrs.push_back(in);
            targets.push_back(target);
        }
    }
    close();
    return out;
}

std::map<std::string, ResourceUsage> parse_res_usage(const std::string& text) {
    std::map<std::string, ResourceUsage> out;
    std::istringstream is(text);
    std::string line, fn;
    auto field = [](const std::string& l, const char* key) -> uint32_t {
        size_t k = l.find(key);
        return k == std::string::npos ? 0 : uint32_t(std::stoul(l.substr(k + std::char_traits<char>::length(key))));
    };
    while (std::getline(is, line)) {
        size_t f = line.find("Function ");
        if (f != std::string::npos) {
            fn = line.substr(f + 9);
            if (!fn.empty() && fn.back() == ':') fn.pop_back();
        } else if (!fn.empty() && line.find("REG:") != std::string::npos) {
            ResourceUsage& r = out[fn];
            r.regs = field(line, "REG:");
            r.stack = field(line, "STACK:");
            r.shared = field(line, "SHARED:");
            r.local = field(line, "LOCAL:");
            fn.clear();
        }
    }
    return out;
}

namespace {

// Whether a guarded branch over [first, last) was taken, as far as the code
// says: it was if the code makes a call (a compiler's slow path), or holds an
// unguarded memory instruction, which would have run and been captured (the
// walk runs between two consecutive captured instructions of the warp).
bool skipped(const SassFunction& f, int first, int last) {
    for (int i = first; i < last; ++i)
        if (f.instrs[i].call || (f.instrs[i].anchor && !f.instrs[i].guarded)) return true;
    return false;
}

// Forward from `first` to `to`, jumping where a branch jumps ahead: always
// where it is unguarded, and where it is guarded if the code it jumps over was
// not run (skipped).
void forward(const SassFunction& f, int first, int to, SassPath& p) {
    int start = first;
    for (int i = first; i < to; ++i) {
        const SassInstr& in = f.instrs[i];
        const bool ahead = in.branch_target > i && in.branch_target <= to;
        if (ahead && (!in.guarded || skipped(f, i + 1, in.branch_target))) {
            p.part.push_back({start, i + 1});
            start = i = in.branch_target;
            --i;  // the loop's ++i lands on the target
        }
    }
    p.part.push_back({start, to});
}

}  // namespace

SassPath path_between(const SassFunction& f, int from, int to) {
    SassPath p;
    if (to > from) {
        forward(f, from + 1, to, p);
        return p;
    }
    // The loop went round: find the first backward branch after `from` that lands at or before `to`.
    for (int b = from + 1; b < int(f.instrs.size()); ++b) {
        int t = f.instrs[b].branch_target;
        if (t >= 0 && t <= to) {
            p.part.push_back({from + 1, b + 1});
            forward(f, t, to, p);
            return p;
        }
    }
    p.part.push_back({to, to});  // no such branch: nothing known to lie between
    return p;
}

SassPath path_to_exit(const SassFunction& f, int from) {
    SassPath p;
    int e = from + 1;
    while (e < int(f.instrs.size()) && !f.instrs[e].exit) ++e;
    forward(f, from + 1, std::min(e + 1, int(f.instrs.size())), p);
    return p;
}

}  // namespace dcutrace
