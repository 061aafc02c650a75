#include "tag_array.h"

namespace dcusim {

TagArray::TagArray(const CacheGeometry& g, std::unique_ptr<ReplacementPolicy> repl)
    : g_(g), line_bytes_(g.line_bytes), sets_(g.sets()), set_of_(sets_), tag_(size_t(sets_) * g.assoc, 0),
      repl_(std::move(repl)) {}

int32_t TagArray::lookup_slot(uint64_t line, uint64_t index) {
    const uint32_t set = set_index(index);
    uint64_t* t = &tag_[size_t(set) * g_.assoc];
    for (uint32_t w = 0; w < g_.assoc; ++w)
        if (t[w] == line + 1) {
            repl_->touch(set, w);
            return int32_t(set * g_.assoc + w);
        }
    return -1;
}

int32_t TagArray::probe_slot(uint64_t line, uint64_t index) const {
    const uint32_t set = set_index(index);
    const uint64_t* t = &tag_[size_t(set) * g_.assoc];
    for (uint32_t w = 0; w < g_.assoc; ++w)
        if (t[w] == line + 1) return int32_t(set * g_.assoc + w);
    return -1;
}

bool TagArray::lookup(uint64_t line) { return lookup_slot(line) >= 0; }

int32_t TagArray::fill_slot(uint64_t line, uint64_t index, bool* replaced, uint64_t* evicted) {
    const uint32_t set = set_index(index);
    uint64_t* t = &tag_[size_t(set) * g_.assoc];
    uint32_t way = g_.assoc;
    for (uint32_t w = 0; w < g_.assoc && way == g_.assoc; ++w)
        if (t[w] == 0) way = w;
    *replaced = way == g_.assoc;
    if (*replaced) {
        way = repl_->victim(set);
        *evicted = t[way] - 1;
    }
    t[way] = line + 1;
    repl_->fill(set, way);
    return int32_t(set * g_.assoc + way);
}

bool TagArray::fill(uint64_t line, uint64_t* evicted) {
    if (lookup_slot(line) >= 0) return false;
    bool replaced;
    uint64_t ev = 0;
    fill_slot(line, line, &replaced, &ev);
    if (replaced && evicted) *evicted = ev;
    return replaced;
}

void TagArray::invalidate_all() {
    for (size_t i = 0; i < tag_.size(); ++i) {
        if (tag_[i]) repl_->invalidate(uint32_t(i / g_.assoc), uint32_t(i % g_.assoc));
        tag_[i] = 0;
    }
}

}  // namespace dcusim
