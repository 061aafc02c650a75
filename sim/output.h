// Reports of a run: the summary table (stdout), JSON and CSV files. Files are
// written to a temporary name and renamed, so none is ever left half-written.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "platform.h"

namespace dcusim {

void print_summary(std::ostream& o, const Config& cfg, const std::vector<std::string>& traces, const RunResult& r);
// A trace with host statements: the program's end-to-end time and its parts, one line (nothing otherwise).
void print_host_summary(std::ostream& o, const RunResult& r);
std::string to_json(const Config& cfg, const std::vector<std::string>& traces, const RunResult& r);
std::string to_csv(const RunResult& r);
// The instructions to blame: per kernel and cost, the top `top` PCs.
void print_pc_report(std::ostream& o, const RunResult& r, size_t top);
// Throws std::runtime_error naming the file. A symbolic link is followed (its target is replaced).
void write_file_atomically(const std::string& path, const std::string& content);
// All of them or, on an error, none (each to a temporary name in its folder, then renamed).
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace dcusim
