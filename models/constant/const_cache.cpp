#include "const_cache.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

ConstantCache::ConstantCache(sc_core::sc_module_name name, const ConstParams& p)
    : sc_module(name), p_(p), tags_(p.geometry, make_replacement(p.replacement, p.geometry.sets(), p.geometry.assoc)) {}

void ConstantCache::finish_op(uint32_t op, Cycle done) {
    PendingOp& o = ops_[op];
    o.done = std::max(o.done, done);
    if (--o.fills == 0) {
        MemRequest* r = o.req;
        r->done = o.done;
        ops_.release(op);
        r->reply_to->mem_response(*r);
    }
}

Cycle ConstantCache::wave_request(MemRequest& req) {
    const trace::Instr& in = *req.instr;
    const trace::WaveTrace& w = *req.wave;
    const Cycle now = req.issue;
    // Distinct addresses in lane order (at most one per lane).
    uint64_t addrs[64];
    unsigned k = 0;
    if (in.mode == trace::AddrMode::Affine && (in.stride == 0 || trace::popcount64(in.mask) == 1)) {
        addrs[k++] = in.base + uint64_t(__builtin_ctzll(in.mask)) * uint64_t(in.stride);  // one address: the usual case
    } else {
        w.for_each_lane(in, [&](unsigned, uint64_t a) {
            if (std::find(addrs, addrs + k, a) == addrs + k) addrs[k++] = a;
        });
    }
    ++stats_.instructions;
    if (k > 1 && p_.divergent == ConstDivergence::Vector) {
        ++stats_.vector_instructions;
        return kNotHere;
    }
    stats_.requests += k;
    stats_.serialization_cycles += uint64_t(k - 1) * p_.request_cycles;
    if (PcProfile* prof = PcProfile::active()) prof->at(in.pc).const_serialization_cycles += uint64_t(k - 1) * p_.request_cycles;
    Cycle start = std::max(now, port_free_);
    stats_.queue_cycles += start - now;
    const uint32_t op = ops_.acquire();
    ops_[op] = {&req, 1, 0};  // one fill's worth held until every request is placed
    for (unsigned r = 0; r < k; ++r) {
        Cycle t = start + Cycle(r) * p_.request_cycles;
        uint64_t first = tags_.line_of(addrs[r]), last = tags_.line_of(addrs[r] + in.bytes - 1);
        bool hit = true;
        for (uint64_t line = first; line <= last; ++line) {
            if (tags_.lookup(line)) continue;
            hit = false;
            ++ops_[op].fills;
            auto it = mshrs_.find(line);
            if (it != mshrs_.end()) {
                ++stats_.mshr_merges;
                it->second.ops.push_back(op);
                continue;
            }
            Mshr& m = mshrs_[line];
            m.req = MemRequest{};
            m.req.op = trace::Op::Load;
            m.req.space = trace::Space::Const;
            m.req.source = uint16_t(p_.first_cu);
            m.req.addr = line * p_.geometry.line_bytes;
            m.req.size = p_.geometry.line_bytes;
            m.req.issue = t;
            m.req.reply_to = this;
            m.req.tag = line;
            m.req.pc = in.pc;
            m.ops.push_back(op);
            ++stats_.fills;
            mem->mem_request(m.req);
        }
        (hit ? stats_.hits : stats_.misses) += 1;
        ops_[op].done = std::max(ops_[op].done, t + p_.latency + Cycle(r) * p_.replay_latency);
    }
    port_free_ = start + Cycle(k) * p_.request_cycles;
    PendingOp& o = ops_[op];
    if (--o.fills) return kAnswerLater;
    const Cycle done = o.done;  // every line hit
    ops_.release(op);
    return done;
}

void ConstantCache::mem_response(MemRequest& req) {
    // `req` lives in the MSHR being retired: take what is needed first.
    const uint64_t line = req.tag;
    const Cycle done = req.done + p_.latency;
    auto it = mshrs_.find(line);
    std::vector<uint32_t> ops = std::move(it->second.ops);
    mshrs_.erase(it);
    tags_.fill(line, nullptr);
    for (uint32_t op : ops) finish_op(op, done);
}

}  // namespace dcusim
