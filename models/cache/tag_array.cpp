#include "tag_array.h"

namespace dcusim {

TagArray::TagArray(const CacheGeometry& g, std::unique_ptr<ReplacementPolicy> repl)
    : g_(g), sets_(g.sets()), tag_(size_t(sets_) * g.assoc, 0), repl_(std::move(repl)) {}

bool TagArray::lookup(uint64_t line) {
    uint32_t set = uint32_t(line % sets_);
    uint64_t* t = &tag_[size_t(set) * g_.assoc];
    for (uint32_t w = 0; w < g_.assoc; ++w)
        if (t[w] == line + 1) {
            repl_->touch(set, w);
            return true;
        }
    return false;
}

bool TagArray::fill(uint64_t line, uint64_t* evicted) {
    uint32_t set = uint32_t(line % sets_);
    uint64_t* t = &tag_[size_t(set) * g_.assoc];
    uint32_t way = g_.assoc;
    for (uint32_t w = 0; w < g_.assoc; ++w) {
        if (t[w] == line + 1) { repl_->touch(set, w); return false; }
        if (t[w] == 0 && way == g_.assoc) way = w;
    }
    bool replaced = false;
    if (way == g_.assoc) {
        way = repl_->victim(set);
        replaced = true;
        if (evicted) *evicted = t[way] - 1;
    }
    t[way] = line + 1;
    repl_->touch(set, way);
    return replaced;
}

void TagArray::invalidate_all() {
    for (size_t i = 0; i < tag_.size(); ++i) {
        if (tag_[i]) repl_->invalidate(uint32_t(i / g_.assoc), uint32_t(i % g_.assoc));
        tag_[i] = 0;
    }
}

}  // namespace dcusim
