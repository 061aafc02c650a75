// The one registry of preset keys: every table of sim/preset.h's for_each_table (each unit's,
// models/*/*_params.h, and the keys of no unit), gathered once. The INI loader and the flags
// (Config), `dcusim --help`, the JSON's preset and the sweeps read its keys; load() makes the
// Preset. No key is listed anywhere else.
#pragma once

#include <string>
#include <vector>

#include "../models/common/params.h"

namespace dcusim {

class Config;
struct Preset;

namespace preset_registry {

// Every key once, in the order of the tables, each key placed after the key its `after` names:
// the order of `dcusim --help`, of the JSON's preset, and of the search for the keys an error names.
const std::vector<ParamDef>& keys();

// The key's declaration, or nullptr when no table declares it.
const ParamDef* find(const std::string& key);

// The preset of checked values (Config checks each against its key's range): each table fills its
// params, the units take what they need of each other's, then every table's checks run, the early
// ones table by table, then the late ones. A failed check throws ConfigError naming where the key
// was set (sim/preset.h includes this header, so a Preset is complete where this is called).
Preset load(const Config& c);

}  // namespace preset_registry
}  // namespace dcusim
