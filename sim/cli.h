// The dcusim command line: `run` and `trace convert|dump|stats`.
// Exit codes: 0 success, 2 bad input (command line, preset, trace), 1 internal error.
#pragma once

#include <string>
#include <vector>

namespace dcusim {

int cli_main(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_trace(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_plot(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_measure(const std::vector<std::string>& args);

}  // namespace dcusim
