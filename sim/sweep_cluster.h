// What a cluster sweep keeps in FILE.csv.parts/ beside the part files, and where each point stands.
// Submission N (1, 2, ...) is slurm-N.sh (the job script), slurm-N.tasks (line T: the ids of array
// task T's points) and slurm-N.job (the job id sbatch gave); slurm-points.tsv lists every point
// (id, tab, "TRACE KEY=V ...") so that --status needs nothing but the folder.
#pragma once

#include <filesystem>
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

std::vector<Submission> read_submissions(const std::filesystem::path& parts);

// The array tasks of `job` by index ("3"), from squeue, else sacct; empty when neither knows it.
// Throws std::runtime_error when squeue fails for another reason (no controller).
std::map<std::string, TaskState> query_job(const std::string& job);

// Where each point stands, from the part files and what Slurm says of the submissions' tasks.
// Throws as query_job.
std::vector<PointStatus> point_states(const std::filesystem::path& parts, const PointList& points);

// "failed", "running", ...: the word --status prints.
const char* state_word(PointState s);

// The shell's quoting of a word: 'it'\''s'.
std::string shell_quote(const std::string& w);

}  // namespace dcusim
