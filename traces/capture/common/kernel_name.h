// The kernel names the capture tools (dcutrace, dcucc) write into traces:
// demangled, without `void ` in front and without spaces, so that a name is
// one token of the text format and both tools name a kernel alike.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <string>

namespace dcusim::capture {

// `_Z1fILi1EfEvPT0_i` -> `f<1,float>(float*,int)`; a name that does not
// demangle (extern "C" kernels) stays as it is, less spaces.
inline std::string kernel_name(const char* mangled) {
    int status = 0;
    char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string s = status == 0 && d ? d : mangled;
    std::free(d);
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '#') out += c;
    return out;
}

}  // namespace dcusim::capture
