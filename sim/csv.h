// CSV as dcusim writes and reads it: a field that holds a comma, a quote or a
// line break is quoted (kernel names captured from C++ carry commas).
#pragma once

#include <string>
#include <vector>

namespace dcusim {

// One field, quoted when it needs to be.
std::string csv_field(const std::string& s);

// Splits one line into its fields (quoted fields may hold commas and "" for a quote).
std::vector<std::string> csv_fields(const std::string& line);

}  // namespace dcusim
