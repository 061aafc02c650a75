// dcusim validate DIR --slurm: the replays of a large validation folder as one Slurm job array
// (sim/slurm_array.h), their JSON kept in REPORT_DIR/slurm-runs/ for the report once all are done.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_parse.h"

namespace dcusim {

// --slurm, --status and a task's share (--task-list, --task), once the folder and preset have been
// read (o.settings filled). Returns the exit code, or -1 when every replay is done: `sims` then
// holds each trace's `dcusim run --json` and the report follows.
int validate_slurm(const ValidateArgs& o, const std::vector<std::string>& traces, std::map<std::string, nlohmann::json>& sims);

}  // namespace dcusim
