// Sizes as users write them: digits with an optional K, M or G (powers of 1024),
// shared by the presets and dcusim-tracegen (which links no simulator).
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace dcusim {

// Parses e.g. 64K; false for anything else or a value past 64 bits.
inline bool parse_size(const std::string& s, uint64_t& out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno) return false;
    std::string suf(end);
    unsigned shift = 0;
    if (suf == "") shift = 0;
    else if (suf == "K" || suf == "k" || suf == "KiB") shift = 10;
    else if (suf == "M" || suf == "m" || suf == "MiB") shift = 20;
    else if (suf == "G" || suf == "g" || suf == "GiB") shift = 30;
    else return false;
    if (shift && v > (~0ull >> shift)) return false;
    out = uint64_t(v) << shift;
    return true;
}

}  // namespace dcusim
