// A DRAM command, and the choice of the next one to issue: what the
// scheduler, the refresh manager and the controller pass between them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/clock.h"

namespace dcusim {

enum class DramCmd : uint8_t { None, Act, Pre, Rd, Wr, Ref };
constexpr unsigned kDramCmds = 6;

struct DramChoice {
    DramCmd cmd = DramCmd::None;
    Cycle at = ~Cycle(0);
    uint32_t bank = 0;
    size_t pos = 0;  // index of the burst it serves in its bank's queue
};

}  // namespace dcusim
