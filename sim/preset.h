// Typed parameter structs of every unit, filled from a checked Config.
#pragma once

#include "../models/constant/const_cache.h"
#include "../models/cu/occupancy.h"
#include "../models/lds/lds.h"
#include "../models/memory/fixed_latency_memory.h"
#include "config.h"

namespace dcusim {

struct Preset {
    uint32_t cus = 1;
    double clock_mhz = 1000;
    CuParams cu;
    LdsParams lds;
    ConstParams constant;
    FixedMemoryParams mem;
};

// Throws ConfigError when values are inconsistent with each other.
Preset make_preset(const Config& c);

}  // namespace dcusim
