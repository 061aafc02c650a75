// A preset's values as text, by key: every key of the registry (sim/preset_registry.h; name,
// type, default, unit, help, range). Values come from the defaults, then a preset file (INI),
// then command-line flags; each is checked against its key here, errors name the key and where
// it came from.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "sim/size.h"

namespace dcusim {

struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};


class Config : public ParamValues {
public:
    Config();  // defaults
    // Reads an INI preset: `[section]` then `key = value` (key becomes
    // section.key); `#` and `;` start comments.
    void load_file(const std::string& path);
    // The same from text already read; `path` names it in errors.
    void load_text(const std::string& text, const std::string& path);
    // `origin` names where the value came from in errors ("--lds.banks").
    void set(const std::string& key, const std::string& value, const std::string& origin);

    uint64_t u(const std::string& key) const override;
    double real(const std::string& key) const override;
    std::vector<uint64_t> sizes(const std::string& key) const override;  // SizeList: comma-separated sizes
    const std::string& str(const std::string& key) const override;
    bool is_set(const std::string& key) const override;
    const std::map<std::string, std::string>& values() const { return values_; }
    const std::string& source() const { return source_; }
    // Where a key's value was set ("FILE:LINE", "--KEY"), for errors that
    // concern its value; the built-in defaults if nothing set it.
    const std::string& origin(const std::string& key) const;

private:
    std::map<std::string, std::string> values_, origins_;
    std::string source_ = "built-in defaults (dcu-z100)";
};

// The help text listing every key with its default and unit.
std::string describe_params();

}  // namespace dcusim
