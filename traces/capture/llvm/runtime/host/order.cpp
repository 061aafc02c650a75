#include "order.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <unordered_map>

namespace dcucc::host {

namespace {

std::string base_op(const std::string& op) { return op.substr(0, op.find('.')); }

bool ends_segment(const dcutrace::SassInstr& in) {
    const std::string b = base_op(in.opcode);
    return in.branch_target >= 0 || b == "BRA" || b == "BRX" || b == "JMP" || b == "JMX" || b == "RET" ||
           b == "EXIT" || b == "BAR";
}

bool falls_through(const dcutrace::SassInstr& in) {
    const std::string b = base_op(in.opcode);
    if (in.guarded) return true;
    return !(b == "BRA" || b == "JMP" || b == "RET" || b == "EXIT");
}

// The first register an address base names ("R2.64" -> 2, "R2+UR4" -> 2), -1 if none.
int first_reg(const std::string& base) {
    for (size_t i = 0; i + 1 < base.size(); ++i)
        if (base[i] == 'R' && (i == 0 || base[i - 1] == '+' || base[i - 1] == '[') && std::isdigit(uint8_t(base[i + 1])))
            return std::atoi(base.c_str() + i + 1);
    return -1;
}

bool same_site(const Site& s, const dcutrace::SassInstr& in) {
    return s.line == in.line && same_what(s.what, sass_what(in));
}

}  // namespace

std::vector<SassSegment> sass_segments(const dcutrace::SassFunction& f, std::vector<int>& seg_of) {
    const size_t n = f.instrs.size();
    std::vector<bool> start(n + 1, false);
    start[0] = true;
    for (size_t i = 0; i < n; ++i) {
        const auto& in = f.instrs[i];
        if (in.branch_target >= 0) start[size_t(in.branch_target)] = true;
        if (ends_segment(in)) start[i + 1] = true;
        if (base_op(in.opcode) == "BAR") start[i] = true;
    }
    std::vector<SassSegment> segs;
    seg_of.assign(n, -1);
    for (size_t i = 0; i < n; ++i) {
        if (start[i]) segs.push_back({int(i), int(i), {}});
        segs.back().last = int(i) + 1;
        seg_of[i] = int(segs.size()) - 1;
    }
    for (size_t s = 0; s < segs.size(); ++s) {
        const auto& in = f.instrs[size_t(segs[s].last) - 1];
        if (in.branch_target >= 0) segs[s].next.push_back(seg_of[size_t(in.branch_target)]);
        if (falls_through(in) && segs[s].last < int(n)) segs[s].next.insert(segs[s].next.begin(), int(s) + 1);
    }
    return segs;
}

unsigned sass_bytes(const dcutrace::SassInstr& in) {
    const std::string& op = in.opcode;
    auto has = [&](const char* m) {
        for (size_t p = op.find(m); p != std::string::npos; p = op.find(m, p + 1)) {
            const size_t e = p + std::char_traits<char>::length(m);
            if (e == op.size() || op[e] == '.') return true;
        }
        return false;
    };
    if (has(".128")) return 16;
    if (has(".64") || has(".U64") || has(".S64") || has(".F64")) return 8;
    if (has(".U16") || has(".S16")) return 2;
    if (has(".U8") || has(".S8")) return 1;
    return 4;
}

std::pair<std::string, int64_t> split_address(const std::string& operand) {
    std::string s = operand;
    if (!s.empty() && s.front() == '[') s.erase(0, 1);
    if (!s.empty() && s.back() == ']') s.pop_back();
    // The offset is the last hexadecimal term: "+0x10", "+-0x1c", "-0x1c", or all of "0x100".
    size_t x = s.rfind("0x");
    if (x == std::string::npos) return {s, 0};
    size_t t = x;
    bool neg = false;
    if (t > 0 && s[t - 1] == '-') neg = true, --t;
    if (t > 0 && s[t - 1] == '+') --t;
    if (t != 0 && s[x - 1] != '+' && s[x - 1] != '-') return {s, 0};
    const int64_t v = int64_t(std::strtoull(s.c_str() + x + 2, nullptr, 16));
    return {s.substr(0, t), neg ? -v : v};
}

SassOrder::SassOrder(const MachineCode& mc, const SiteMap& sites) : mc_(mc), sites_(sites) {
    const auto& f = *mc.f;
    segs_ = sass_segments(f, seg_of_);
    anchors_.resize(f.instrs.size());
    // A base register's value changes where an instruction writes it: the key
    // counts those writes within the segment, so that two offsets compare only
    // against one value.
    std::map<std::string, int> ids;
    uint64_t max_imm = 0;
    for (const auto& s : segs_) {
        std::map<int, int> version;
        for (int i = s.first; i < s.last; ++i) {
            const auto& in = f.instrs[size_t(i)];
            if (!sass_what(in).empty() && base_op(in.opcode) != "BAR") {
                auto [base, imm] = split_address(in.address);
                const int r = first_reg(base);
                const std::string key = std::to_string(s.first) + ":" + base + "#" +
                                        std::to_string(r >= 0 ? version[r] : 0);
                anchors_[size_t(i)].base = ids.emplace(key, int(ids.size())).first->second;
                anchors_[size_t(i)].imm = imm;
                max_imm = std::max(max_imm, imm < 0 ? uint64_t(0) - uint64_t(imm) : uint64_t(imm));
            }
            for (size_t r = 0; r < in.writes.size(); ++r)
                if (in.writes.test(r)) ++version[int(r)];
        }
    }
    span_ = 2 * max_imm;  // two offsets differ by at most this
}

// The SASS instructions that may have issued item `w`: of its site's line and
// operation, and as wide; empty for a site that matched no SASS at all.
const std::vector<int>& SassOrder::candidates(const WaveItem& w) const {
    static const std::vector<int> none;
    auto& by_bytes = cand_of_pc_[w.pc];
    if (auto it = by_bytes.find(w.bytes); it != by_bytes.end()) return *it->second;
    auto s = sites_.find(w.pc);
    const std::vector<int>* out = &none;
    if (s != sites_.end() && mc_.index(w.pc) >= 0 && (w.kind == WaveItem::Mem || w.kind == WaveItem::Barrier)) {
        const std::string key = s->second.line + "|" + s->second.what + "|" + std::to_string(w.bytes);
        auto [it, fresh] = cand_.emplace(key, std::vector<int>());
        if (fresh) {
            const auto& f = *mc_.f;
            for (size_t i = 0; i < f.instrs.size(); ++i) {
                const auto& in = f.instrs[i];
                if (!same_site(s->second, in)) continue;
                if (w.kind == WaveItem::Mem ? sass_bytes(in) == w.bytes : base_op(in.opcode) == "BAR")
                    it->second.push_back(int(i));
            }
        }
        out = &it->second;
    }
    return *by_bytes.emplace(w.bytes, out).first->second;
}

// How many of the participants from item `i` on (up to a wait, a barrier,
// or the first it cannot host) segment `seg` issues, given the instructions
// `used` in this visit; the instructions it takes go to `take` if given.
int SassOrder::host_prefix(int seg, const std::vector<WaveItem>& w, size_t i, const std::set<int>& used,
                           std::vector<int>* take, int limit) const {
    const SassSegment& s = segs_[size_t(seg)];
    std::set<int> mine;
    int n = 0;
    for (; i < w.size(); ++i) {
        if (w[i].kind == WaveItem::Wait) break;
        const auto& c = candidates(w[i]);
        if (w[i].kind == WaveItem::Other || c.empty()) continue;
        int got = -1;
        for (auto it = std::lower_bound(c.begin(), c.end(), s.first); it != c.end() && *it < s.last; ++it)
            if (!used.count(*it) && !mine.count(*it)) {
                got = *it;
                break;
            }
        if (got < 0) break;
        mine.insert(got);
        if (take) take->push_back(got);
        ++n;
        if (w[i].kind == WaveItem::Barrier || n == limit) break;
    }
    return n;
}

// The segment the wave goes on to for item `i`: breadth-first from `cur`'s
// successors (from the entry when cur < 0), the nearest that issues it, and
// of those at one distance the one that issues the most of what follows.
int SassOrder::search(int cur, const std::vector<WaveItem>& w, size_t i) const {
    std::vector<int> level = cur < 0 ? std::vector<int>{0} : segs_[size_t(cur)].next;
    std::vector<bool> seen(segs_.size(), false);
    const std::set<int> none;
    while (!level.empty()) {
        int best = -1, most = 0;
        std::vector<int> up;
        for (int s : level) {
            if (seen[size_t(s)]) continue;
            seen[size_t(s)] = true;
            const int n = host_prefix(s, w, i, none, nullptr);
            if (n > most) best = s, most = n;
            for (int t : segs_[size_t(s)].next) up.push_back(t);
        }
        if (best >= 0) return best;
        level.swap(up);
    }
    return -1;
}

}  // namespace dcucc::host

namespace dcucc::host {

namespace {

// assign_by_address's search: one base register's group at a time, each
// taking the value of its register (a record's address less the offset) that
// explains the most of its instructions; ties are tried each (up to a bound).
struct Assigner {
    const std::vector<AddrRec>& r;
    const std::vector<AddrAnchor>& a;
    std::vector<std::vector<size_t>> groups;  // anchor positions, by base
    std::vector<int> cur, best;               // per record: anchor position or -1
    std::vector<bool> a_used;
    long best_hits = -1, best_inv = 0;
    int leaves = 0;

    long inversions(const std::vector<int>& m) const {
        long inv = 0;
        for (size_t i = 0; i < m.size(); ++i)
            for (size_t j = i + 1; j < m.size(); ++j) inv += m[i] >= 0 && m[j] >= 0 && a[size_t(m[i])].index > a[size_t(m[j])].index;
        return inv;
    }
    std::map<std::pair<int, uint64_t>, std::vector<int>> by_addr;  // records at (lane, address), program order

    // The first free record (program order) at `addr` in `lane`.
    int record_at(int lane, uint64_t addr) const {
        auto it = by_addr.find({lane, addr});
        if (it != by_addr.end())
            for (int i : it->second)
                if (cur[size_t(i)] < 0) return i;
        return -1;
    }
    // How many of group g's free instructions register value (lane, v) explains; with `apply`, takes them.
    int explain(size_t g, int lane, uint64_t v, bool apply, std::vector<std::pair<size_t, size_t>>* undo) {
        int hits = 0;
        std::vector<int> taken;
        for (size_t k : groups[g]) {
            if (a_used[k]) continue;
            const int i = record_at(lane, v + uint64_t(a[k].imm));
            if (i < 0 || std::count(taken.begin(), taken.end(), i)) continue;
            ++hits;
            taken.push_back(i);
            if (apply) cur[size_t(i)] = int(k), a_used[k] = true, undo->push_back({size_t(i), k});
        }
        return hits;
    }
    void leaf(long hits) {
        ++leaves;
        std::vector<int> done = cur;
        complete(done);
        const long inv = inversions(done);
        if (hits > best_hits || (hits == best_hits && inv < best_inv)) best = done, best_hits = hits, best_inv = inv;
    }
    // What addresses left open: in program order onto the free instructions in SASS order.
    void complete(std::vector<int>& m) const {
        std::vector<bool> taken(a.size(), false);
        for (int k : m)
            if (k >= 0) taken[size_t(k)] = true;
        std::vector<size_t> free;
        for (size_t k = 0; k < a.size(); ++k)
            if (!taken[k]) free.push_back(k);
        std::sort(free.begin(), free.end(), [&](size_t x, size_t y) { return a[x].index < a[y].index; });
        size_t next = 0;
        for (int& k : m)
            if (k < 0 && next < free.size()) k = int(free[next++]);
    }
    void dfs(size_t g, long hits) {
        if (g == groups.size()) return leaf(hits);
        // Candidate register values, first seen in program order (ties are tried in it).
        std::vector<std::pair<int, uint64_t>> values;
        std::set<std::pair<int, uint64_t>> seen;
        for (size_t i = 0; i < r.size(); ++i)
            if (cur[i] < 0)
                for (size_t k : groups[g])
                    if (!a_used[k] && seen.insert({r[i].lane, r[i].addr - uint64_t(a[k].imm)}).second)
                        values.push_back({r[i].lane, r[i].addr - uint64_t(a[k].imm)});
        int most = 0;
        std::vector<std::pair<int, uint64_t>> ties;
        for (const auto& [lane, v] : values) {
            const int h = explain(g, lane, v, false, nullptr);
            if (h > most) most = h, ties.clear();
            if (h == most && h > 0) ties.push_back({lane, v});
        }
        // A value that explains one instruction says nothing: any record would do.
        if (most < 2) return dfs(g + 1, hits);
        for (const auto& [lane, v] : ties) {
            if (leaves >= 64 && best_hits >= 0) break;
            std::vector<std::pair<size_t, size_t>> undo;
            explain(g, lane, v, true, &undo);
            dfs(g + 1, hits + most);
            for (auto [i, k] : undo) cur[i] = -1, a_used[k] = false;
        }
    }
};

}  // namespace

std::vector<int> assign_by_address(const std::vector<AddrRec>& r, const std::vector<AddrAnchor>& a) {
    Assigner s{r, a, {}, std::vector<int>(r.size(), -1), {}, std::vector<bool>(a.size(), false), -1, 0, 0, {}};
    for (size_t i = 0; i < r.size(); ++i) s.by_addr[{r[i].lane, r[i].addr}].push_back(int(i));
    std::map<int, size_t> group_of;
    for (size_t k = 0; k < a.size(); ++k) {
        auto [it, fresh] = group_of.emplace(a[k].base, s.groups.size());
        if (fresh) s.groups.emplace_back();
        s.groups[it->second].push_back(k);
    }
    // The largest groups first: they constrain the most.
    std::stable_sort(s.groups.begin(), s.groups.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
    s.dfs(0, 0);
    return s.best;
}

// Places a closed stretch's items (one segment visit) on instructions: per
// class of item (same candidate instructions), by their addresses among the
// class's instructions that this visit has not used otherwise.
void SassOrder::place(const std::vector<WaveItem>& w, const std::vector<size_t>& items, const std::vector<int>& tentative,
                      int seg, std::set<int>& used, std::vector<int>& at) const {
    const SassSegment& s = segs_[size_t(seg)];
    std::vector<const std::vector<int>*> classes;
    for (size_t i : items)
        if (std::find(classes.begin(), classes.end(), &candidates(w[i])) == classes.end()) classes.push_back(&candidates(w[i]));
    for (const std::vector<int>* c : classes) {
        std::vector<size_t> mine;
        std::vector<AddrRec> recs;
        for (size_t k = 0; k < items.size(); ++k)
            if (&candidates(w[items[k]]) == c) {
                mine.push_back(k);
                used.erase(tentative[k]);
                recs.push_back({w[items[k]].lane, w[items[k]].addr});
            }
        std::vector<AddrAnchor> anchors;
        for (auto it = std::lower_bound(c->begin(), c->end(), s.first); it != c->end() && *it < s.last; ++it)
            if (!used.count(*it)) anchors.push_back({*it, anchors_[size_t(*it)].base, anchors_[size_t(*it)].imm});
        const std::vector<int> got = assign_by_address(recs, anchors);
        for (size_t j = 0; j < mine.size(); ++j) {
            const int idx = got[j] >= 0 ? anchors[size_t(got[j])].index : tentative[mine[j]];
            at[items[mine[j]]] = idx;
            used.insert(idx);
        }
    }
}

// Waves of one kernel mostly run one path with one address pattern. The
// walk's result depends only on the items' kinds, sites and widths and on the
// differences between addresses of one class that an offset could bridge
// (placement compares a record's address with another's plus an offset
// difference, never more than span_ apart): so per class the addresses are
// cut where they lie further apart than that, and each is keyed by its piece
// (numbered in program order) and its distance from the piece's lowest. The
// result is kept per such shape, for up to kShapes shapes.
void SassOrder::order(const std::vector<WaveItem>& w, std::vector<size_t>& perm, std::vector<int>& at) const {
    constexpr size_t kShapes = 4096;
    std::map<const std::vector<int>*, std::vector<uint64_t>> addrs;
    for (const WaveItem& x : w)
        if (x.kind == WaveItem::Mem && !candidates(x).empty()) addrs[&candidates(x)].push_back(x.addr);
    std::map<const std::vector<int>*, std::map<uint64_t, uint64_t>> piece_low;  // address -> its piece's lowest
    for (auto& [c, v] : addrs) {
        std::sort(v.begin(), v.end());
        auto& m = piece_low[c];
        uint64_t low = v.front();
        for (size_t k = 0; k < v.size(); ++k) {
            if (k && v[k] - v[k - 1] > span_) low = v[k];
            m[v[k]] = low;
        }
    }
    std::map<std::pair<const std::vector<int>*, uint64_t>, uint64_t> piece_no;
    std::string key;
    key.reserve(w.size() * 24);
    for (const WaveItem& x : w) {
        const std::vector<int>* c = &candidates(x);
        uint64_t rel = 0, no = 0;
        if (x.kind == WaveItem::Mem && !c->empty()) {
            const uint64_t low = piece_low[c][x.addr];
            no = piece_no.emplace(std::make_pair(c, low), piece_no.size()).first->second;
            rel = x.addr - low;
        }
        const uint64_t head = uint64_t(x.kind) | uint64_t(x.bytes) << 8 | uint64_t(uint8_t(x.lane)) << 16 | uint64_t(x.pc) << 32;
        key.append(reinterpret_cast<const char*>(&head), 8).append(reinterpret_cast<const char*>(&rel), 8);
        key.append(reinterpret_cast<const char*>(&no), 4);
    }
    if (auto it = shapes_.find(key); it != shapes_.end()) {
        perm = it->second.first;
        at = it->second.second;
        return;
    }
    walk(w, perm, at);
    if (shapes_.size() < kShapes) shapes_.emplace(std::move(key), std::make_pair(perm, at));
}

void SassOrder::walk(const std::vector<WaveItem>& w, std::vector<size_t>& perm, std::vector<int>& at) const {
    const size_t n = w.size();
    perm.resize(n);
    for (size_t i = 0; i < n; ++i) perm[i] = i;
    at.assign(n, -1);
    int cur = -1;                // the segment being visited
    std::set<int> used;          // its instructions issued in this visit
    std::vector<size_t> items;   // the open stretch
    std::vector<int> tentative;  // where the greedy walk put them
    // The visit's closed stretches (a wait ends one, not the visit): placed
    // together, as one register value may show only across them.
    std::vector<size_t> visit;
    std::vector<int> visit_tentative;
    std::vector<std::pair<size_t, size_t>> stretches;  // [begin, end) in visit
    auto close = [&] {
        if (items.empty()) return;
        stretches.push_back({visit.size(), visit.size() + items.size()});
        visit.insert(visit.end(), items.begin(), items.end());
        visit_tentative.insert(visit_tentative.end(), tentative.begin(), tentative.end());
        used.clear();
        place(w, visit, visit_tentative, cur, used, at);
        for (auto [b, e] : stretches) {
            std::vector<size_t> sorted(visit.begin() + long(b), visit.begin() + long(e));
            std::stable_sort(sorted.begin(), sorted.end(), [&](size_t x, size_t y) { return at[x] < at[y]; });
            for (size_t k = b; k < e; ++k) perm[visit[k]] = sorted[k - b];
        }
        items.clear();
        tentative.clear();
    };
    auto enter = [&](int seg) {
        cur = seg;
        used.clear();
        visit.clear();
        visit_tentative.clear();
        stretches.clear();
    };
    for (size_t i = 0; i < n;) {
        const WaveItem& x = w[i];
        if (x.kind == WaveItem::Wait) close();  // nothing moves across a wait; the visit goes on
        const std::vector<int>& c = candidates(x);
        if (x.kind == WaveItem::Wait || x.kind == WaveItem::Other || c.empty()) {
            if (x.kind != WaveItem::Wait && x.kind != WaveItem::Other) at[i] = mc_.index(x.pc);
            ++i;
            continue;
        }
        if (x.kind == WaveItem::Barrier) close();
        std::vector<int> take;
        if (cur >= 0 && host_prefix(cur, w, i, used, &take, 1) > 0) {
            items.push_back(i);
            tentative.push_back(take[0]);
            used.insert(take[0]);
            if (x.kind == WaveItem::Barrier) close();
            ++i;
            continue;
        }
        close();
        const int next = search(cur, w, i);
        if (next < 0) {  // nowhere to be found on from here: it keeps its place
            at[i] = mc_.index(x.pc);
            ++i;
            continue;
        }
        enter(next);
    }
    close();
}

}  // namespace dcucc::host
