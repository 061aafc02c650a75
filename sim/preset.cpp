#include "preset.h"

#include <algorithm>

namespace dcusim {

namespace {

// A check of values against each other names where the key was set; when the defaults set it,
// where the other key it names was set (--cu.vgprs_per_simd 1 makes the default cu.max_vgprs too
// many: the error points at the flag).
class PresetErrors : public ParamErrors {
public:
    explicit PresetErrors(const Config& c) : c_(c) {}
    using ParamErrors::fail;
    [[noreturn]] void fail(const std::string& key, const std::string& why, const std::vector<std::string>& named) const override {
        std::string at = c_.origin(key);
        const std::string defaults = c_.origin("");
        std::vector<std::string> partners = named;
        for (const auto& d : param_defs())
            if (why.find(d.key) != std::string::npos) partners.push_back(d.key);
        for (size_t i = 0; at == defaults && i < partners.size(); ++i) at = c_.origin(partners[i]);
        throw ConfigError(at + ": key '" + key + "': " + why);
    }

private:
    const Config& c_;
};

// What one unit's parameters take from another's keys.
void connect_units(Preset& p) {
    p.l1.wave_size = p.cu.wave_size;
    p.noc.cus = p.cus;
    p.l2.channels = p.noc.channels;
    p.l2.interleave_bytes = p.noc.interleave_bytes;
    p.l2.sides.channels = p.noc.channels;
    p.noc.sides = p.l2.sides;
    p.l1.write_grain = std::min(p.l1.sector_bytes, p.l2.sector_bytes);  // a store's bytes, as finely as either level keeps them
}

}  // namespace

Preset make_preset(const Config& c) {
    // Every value is within its key's range already (Config checks them against the declarations);
    // what is left are the checks of values against each other, each unit's then the platform's.
    Preset p;
    for_each_unit(p, [&](const auto& table, auto& params) { table.load(params, c); });
    preset_param_table().load(p, c);
    connect_units(p);
    const PresetErrors errors(c);
    for (CheckPhase phase : {CheckPhase::Early, CheckPhase::Late}) {
        for_each_unit(p, [&](const auto& table, auto& params) { table.check(params, c, errors, phase); });
        preset_param_table().check(p, c, errors, phase);
    }
    return p;
}

}  // namespace dcusim
