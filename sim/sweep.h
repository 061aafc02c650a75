// The parts of `dcusim sweep` that the local run (cmd_sweep.cpp) and the cluster run (sweep_slurm.cpp)
// share: the points of a sweep, their part files in FILE.csv.parts/, running points in child processes
// and assembling the CSV from the parts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli_parse.h"

namespace dcusim {

struct SweepPoint {
    std::string trace;
    std::vector<std::string> values;  // one per --vary
    std::string id;                   // names its part files
};

// A sweep whose every combination has been checked, with its points in CSV order.
struct SweepPlan {
    SweepArgs args;
    std::vector<SweepPoint> points;
    std::filesystem::path parts;  // FILE.csv.parts
};

// Checks the arguments, lists the points and makes the parts folder. 0, or the exit code after a
// one-line error on stderr.
int plan_sweep(const SweepArgs& args, SweepPlan& plan);

// "" if `file` is a part file as `dcusim run --csv` writes it, else what is wrong with it.
std::string part_file_defect(const std::filesystem::path& file);

// Whether point i has a sound part file; one that is corrupt is reported, removed, and not done.
bool point_done(const SweepPlan& plan, size_t i);

// "TRACE KEY=V ...": how messages name a point.
std::string point_text(const SweepPlan& plan, const SweepPoint& p);

// Runs the points `todo` (indices) in child processes, `jobs` at a time; returns how many failed
// (each reported on stderr and its first error line kept in PARTS/ID.failed), or -1 when none could start.
long run_points(const SweepPlan& plan, const std::vector<size_t>& todo, unsigned jobs, bool quiet);

// Writes FILE.csv (and --json) from the parts that exist, in point order. 0, or 2 after an error.
int write_sweep_outputs(const SweepPlan& plan);

// The cluster side (sweep_slurm.cpp): submit or resume (--slurm), report (--status), collect
// (--collect), and one array task's share (the job script's call).
int sweep_slurm(const SweepPlan& plan);
int sweep_status(const std::string& out);
int sweep_collect(const SweepPlan& plan);
int sweep_task(const SweepPlan& plan);

}  // namespace dcusim
