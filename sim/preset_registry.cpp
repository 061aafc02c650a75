#include "preset_registry.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "config.h"
#include "preset.h"

namespace dcusim::preset_registry {

namespace {

std::vector<ParamDef> gather() {
    std::vector<ParamDef> defs;
    std::vector<std::pair<ParamDef, const char*>> placed;  // a key, and the key it follows
    Preset unused;
    for_each_table(unused, [&](const auto& table, auto&) {
        for (const auto& k : table.keys)
            if (k.after)
                placed.emplace_back(k.def, k.after);
            else
                defs.push_back(k.def);
    });
    for (const auto& [def, after] : placed) {
        auto at = defs.begin();  // after "": first of all
        if (*after) {
            at = std::find_if(defs.begin(), defs.end(), [&, a = after](const ParamDef& d) { return d.key == a; });
            if (at == defs.end()) throw std::logic_error(def.key + ": placed after an unknown key");
            ++at;
        }
        defs.insert(at, def);
    }
    for (auto d = defs.begin(); d != defs.end(); ++d)
        if (std::any_of(d + 1, defs.end(), [&](const ParamDef& e) { return e.key == d->key; }))
            throw std::logic_error(d->key + ": declared twice");
    return defs;
}

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
        for (const auto& d : keys())
            if (why.find(d.key) != std::string::npos) partners.push_back(d.key);
        for (size_t i = 0; at == defaults && i < partners.size(); ++i) at = c_.origin(partners[i]);
        throw ConfigError(at + ": key '" + key + "': " + why);
    }

private:
    const Config& c_;
};

}  // namespace

const std::vector<ParamDef>& keys() {
    static const std::vector<ParamDef> defs = gather();
    return defs;
}

const ParamDef* find(const std::string& key) {
    for (const auto& d : keys())
        if (d.key == key) return &d;
    return nullptr;
}

Preset load(const Config& c) {
    Preset p;
    for_each_table(p, [&](const auto& table, auto& params) { table.load(params, c); });
    connect_units(p);
    const PresetErrors errors(c);
    for (CheckPhase phase : {CheckPhase::Early, CheckPhase::Late})
        for_each_table(p, [&](const auto& table, auto& params) { table.check(params, c, errors, phase); });
    return p;
}

}  // namespace dcusim::preset_registry
