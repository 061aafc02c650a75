// libFuzzer harness: the INI preset loader and the preset's consistency checks.
// Any input must end in a ConfigError or a preset that passes every check; whatever passes must
// also stay inside the limits that keep a run's memory and time per cycle bounded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/config.h"
#include "sim/preset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace dcusim;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        Config c;
        c.load_text(text, "fuzz.ini");
        Preset p = preset_registry::load(c);
        // What the checks promise (a violation is a finding: abort).
        if (p.cus < 1 || p.cus > 4096 || p.clock_mhz < 1 || p.clock_mhz > 1e6 || p.dram.clock_mhz < 1 || p.dram.clock_mhz > 1e6 ||
            p.cu.simds > 64 || p.lds.geometry.banks > 1024 || p.dispatch_cycles > 1e5 || p.l1.geometry.line_bytes == 0 ||
            p.l2.geometry.size_bytes % (uint64_t(p.l2.geometry.line_bytes) * p.l2.geometry.assoc) != 0 ||
            p.l1.geometry.size_bytes % (uint64_t(p.l1.geometry.line_bytes) * p.l1.geometry.assoc) != 0 ||
            p.dram.interleave_bytes % p.dram.burst_bytes != 0 || p.dram.row_bytes % p.dram.interleave_bytes != 0)
            std::abort();
        // The describe and origin paths an error message takes.
        (void)describe_params();
    } catch (const ConfigError&) {
    }
    return 0;
}
