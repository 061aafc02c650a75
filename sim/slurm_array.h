// Simulations run as one Slurm job array, for `dcusim sweep --slurm` and `dcusim validate --slurm`:
// the job script, its submission, and where each point (one simulation) stands. All lives in one
// folder that the nodes share, beside the points' results: submission N (1, 2, ...) is slurm-N.sh
// (the job script), slurm-N.tasks (line T: the ids of array task T's points) and slurm-N.job (the
// job id sbatch gave); slurm-points.tsv lists every point (id, tab, how messages name it) so that
// --status needs nothing but the folder.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dcusim {

enum class PointState {
    done,       // a sound part file
    failed,     // its run failed with an error of its own (ID.failed): running it again fails again
    running,    // its task runs and has started it
    pending,    // its task is queued, or runs and has not reached it yet
    unsent,     // in no submission yet
    lost,       // its task ended and left no result (cancelled, timed out, node failure): to submit again
    no_folder,  // its task could not start on its node: the parts folder is not visible there
};

struct PointStatus {
    PointState state = PointState::unsent;
    std::string why;   // failed: the error; lost and no_folder: what Slurm says of the task
    std::string task;  // "JOB_T" once submitted
};

// One array task as squeue (or sacct, once squeue has forgotten it) reports it.
struct TaskState {
    std::string state, reason, node;
};

// The points of a sweep: ids and how messages name them, in CSV order.
struct PointList {
    std::vector<std::string> ids, texts;
};

struct Submission {
    int number = 0;
    std::string job;                              // "" when sbatch never answered
    std::vector<std::vector<std::string>> tasks;  // ids per array task
};

// A command's points as one array: where they live, how a task runs, what sbatch is told.
struct ArrayJob {
    std::string command;  // "sweep": messages begin "dcusim sweep: "
    std::filesystem::path folder;
    PointList points;
    std::function<bool(const std::string& id)> done;  // the point's result is there and sound
    // The task's command line: before + " --task-list FILE --task N" + after (shell words).
    std::string before, after;
    std::string partition, account, time;
    unsigned array_max = 0, per_task = 1;
    bool quiet = false;
    std::string status_command;  // how to follow it, said after "submitted job N"
};

// The sbatch settings and verbosity of a command's --slurm options (sweep's and validate's).
template <class Args>
void take_slurm_options(ArrayJob& job, const Args& a) {
    job.partition = a.partition;
    job.account = a.account;
    job.time = a.time;
    job.array_max = a.array_max;
    job.per_task = a.per_task;
    job.quiet = a.quiet;
}

std::vector<Submission> read_submissions(const std::filesystem::path& parts);

// The array tasks of `job` by index ("3"), from squeue, else sacct; empty when neither knows it.
// Throws std::runtime_error when squeue fails for another reason (no controller).
std::map<std::string, TaskState> query_job(const std::string& job);

// Where each point stands, from the part files and what Slurm says of the submissions' tasks.
// Throws as query_job.
std::vector<PointStatus> point_states(const ArrayJob& job);

// --slurm: submits the points lost or not yet submitted and returns the exit code (0 once sbatch
// has the job, 2 after a one-line error); -1 when no point is left to submit or wait for: the
// caller writes its results from `st` then.
int submit_or_collect(const ArrayJob& job, std::vector<PointStatus>& st);

// --status: a count of each state and a line per point not done, on stdout. 0, or 2 after an error.
int print_status(const ArrayJob& job, const std::string& name);

// In a task: "" if the folder can be written from this node, else the one-line error.
std::string check_folder_from_node(const ArrayJob& job, long task);

std::string host_name();

// "failed", "running", ...: the word --status prints.
const char* state_word(PointState s);

// The shell's quoting of a word: 'it'\''s'.
std::string shell_quote(const std::string& w);

}  // namespace dcusim
