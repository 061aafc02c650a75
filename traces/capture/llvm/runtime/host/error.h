// The one error type of dcucc's host runtime. Its message is one line without
// the `dcucc: ` prefix; the GPU wrappers print it with the prefix and end the
// program with exit code 3 (capture.h, Capture::fail).
#pragma once

#include <stdexcept>

namespace dcucc::host {

struct CaptureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace dcucc::host
