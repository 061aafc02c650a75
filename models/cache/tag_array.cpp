#include "tag_array.h"

namespace dcusim {

TagArray::TagArray(const CacheGeometry& g, std::unique_ptr<ReplacementPolicy> repl)
    : g_(g), line_bytes_(g.line_bytes), sets_(g.sets()), set_of_(sets_), tag_(size_t(sets_) * g.assoc, 0),
      repl_(std::move(repl)) {}

int32_t TagArray::find(uint64_t line, uint64_t index) const {
    if (last_slot_ != -2 && line == last_line_ && index == last_index_) return last_slot_;
    const uint32_t set = set_index(index);
    const uint64_t* t = &tag_[size_t(set) * g_.assoc];
    int32_t slot = -1;
    for (uint32_t w = 0; w < g_.assoc; ++w)
        if (t[w] == line + 1) {
            slot = int32_t(set * g_.assoc + w);
            break;
        }
    last_line_ = line, last_index_ = index, last_slot_ = slot;
    return slot;
}

int32_t TagArray::lookup_slot(uint64_t line, uint64_t index) {
    const int32_t slot = find(line, index);
    if (slot >= 0) repl_->touch(uint32_t(slot) / g_.assoc, uint32_t(slot) % g_.assoc);
    return slot;
}

int32_t TagArray::probe_slot(uint64_t line, uint64_t index) const { return find(line, index); }

bool TagArray::lookup(uint64_t line) { return lookup_slot(line) >= 0; }

int32_t TagArray::fill_slot(uint64_t line, uint64_t index, bool* replaced, uint64_t* evicted) {
    const uint32_t set = set_index(index);
    uint64_t* t = &tag_[size_t(set) * g_.assoc];
    // A set's ways fill in order and stay filled until invalidate_all: a set whose last way holds a line
    // is full, and the others' first empty way ends the filled ones.
    uint32_t way = g_.assoc;
    if (t[g_.assoc - 1] == 0)
        for (way = 0; t[way] != 0;) ++way;
    *replaced = way == g_.assoc;
    if (*replaced) {
        way = repl_->victim(set);
        *evicted = t[way] - 1;
    } else {
        ++held_;
    }
    t[way] = line + 1;
    repl_->fill(set, way);
    last_line_ = line, last_index_ = index, last_slot_ = int32_t(set * g_.assoc + way);
    return last_slot_;
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
    held_ = 0;
    last_slot_ = -2;
}

}  // namespace dcusim
