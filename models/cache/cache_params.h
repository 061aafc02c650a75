// Checks the caches' declarations share (models/constant, l1, l2): line geometry, replacement.
#pragma once

#include "../common/params.h"

namespace dcusim {

inline bool param_pow2(uint64_t v) { return v && !(v & (v - 1)); }

inline const std::vector<const char*>& replacement_names() {
    static const std::vector<const char*> names{"lru", "plru", "fifo", "random"};
    return names;
}

// Line a power of two, sectors a power of two dividing it (at most 32), and the size a multiple of
// `parts` (channels) x line x associativity.
inline void check_cache_lines(const ParamValues& c, const ParamErrors& e, const char* size, const char* line, const char* sector,
                              const char* assoc, uint64_t parts) {
    uint64_t l = c.u(line), s = c.u(sector);
    if (!param_pow2(l)) e.fail(line, "must be a power of two");
    if (!param_pow2(s) || s > l || l / s > 32)
        e.fail(sector, std::string("must be a power of two dividing the line (") + line + "), at most 32 per line");
    const uint64_t unit = parts * l * c.u(assoc), v = c.u(size);
    if (v % unit != 0) {
        // Name the unit and the two sizes around the value, so a sweep's range can be fixed at once.
        std::string why = std::string("must be a multiple of ") + (parts > 1 ? "the channels x " : "") + "line x associativity (" +
                          (parts > 1 ? std::to_string(parts) + " x " : "") + std::to_string(l) + " x " + std::to_string(c.u(assoc)) +
                          " = " + param_size_text(unit) + "); nearest: ";
        if (v > unit) why += param_size_text(v / unit * unit) + " or ";
        e.fail(size, why + param_size_text((v / unit + 1) * unit), {line, assoc, "l2.channels"});
    }
}

// Tree pseudo-LRU splits each set in halves down to single ways.
inline void check_plru(const ParamValues& c, const ParamErrors& e, const std::string& cache) {
    const std::string key = cache + ".replacement", assoc = cache + ".assoc";
    const uint64_t a = c.u(assoc);
    if (c.str(key) == "plru" && (!param_pow2(a) || a > 64)) e.fail(key, "plru needs a power-of-two " + assoc + " of at most 64");
}

}  // namespace dcusim
