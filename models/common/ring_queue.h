// A FIFO in one power-of-two ring that doubles when full: indexing is a mask,
// and pushing and popping never allocate once the ring has grown to the
// queue's depth (a std::deque allocates and frees a node every few entries).
// Elements move on growth and on insert/erase: hold indices, not references.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace dcusim {

template <typename T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    T& operator[](size_t i) { return buf_[(head_ + i) & mask_]; }
    const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }
    T& front() { return (*this)[0]; }
    const T& front() const { return (*this)[0]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }

    void push_back(const T& v) {
        if (size_ == buf_.size()) grow();
        buf_[(head_ + size_) & mask_] = v;
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & mask_;
        --size_;
    }
    // Inserts before position `pos` (0..size), moving the entries behind it back.
    void insert(size_t pos, const T& v) {
        if (size_ == buf_.size()) grow();
        for (size_t i = size_; i > pos; --i) (*this)[i] = std::move((*this)[i - 1]);
        (*this)[pos] = v;
        ++size_;
    }
    // Removes the entry at `pos`, moving the shorter side of the queue over it.
    void erase(size_t pos) {
        if (pos < size_ / 2) {
            for (size_t i = pos; i > 0; --i) (*this)[i] = std::move((*this)[i - 1]);
            pop_front();
        } else {
            for (size_t i = pos; i + 1 < size_; ++i) (*this)[i] = std::move((*this)[i + 1]);
            --size_;
        }
    }

private:
    void grow() {
        std::vector<T> next(buf_.empty() ? 8 : buf_.size() * 2);
        for (size_t i = 0; i < size_; ++i) next[i] = std::move((*this)[i]);
        buf_.swap(next);
        head_ = 0;
        mask_ = buf_.size() - 1;
    }
    std::vector<T> buf_;
    size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace dcusim
