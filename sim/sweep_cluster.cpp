// Where a cluster sweep's points stand (sweep_cluster.h), `dcusim sweep --status FILE.csv` and
// `--collect`. Slurm is asked about tasks that have no result yet; what it says decides whether a
// point is waiting, lost (to submit again) or could not start because its node cannot see the folder.
#include "sweep_cluster.h"

#include <fstream>
#include <iostream>
#include <stdexcept>
#include <sstream>

#include "subprocess.h"
#include "sweep.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) w.push_back(s);
    return w;
}

std::string read_first_word(const fs::path& f) {
    std::ifstream in(f);
    std::string w;
    in >> w;
    return w;
}

// Rows "JOB_T|STATE|REASON|NODE" (squeue -o, sacct -P) by task index.
std::map<std::string, TaskState> parse_task_rows(const std::string& out, const std::string& job) {
    std::map<std::string, TaskState> tasks;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> f;
        std::istringstream row(line);
        for (std::string x; std::getline(row, x, '|');) f.push_back(x);
        if (f.size() < 3 || f[0].rfind(job + "_", 0) != 0) continue;
        const std::string index = f[0].substr(job.size() + 1);
        if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) continue;  // "[3-5%1]"
        std::string state = f[1];
        state = state.substr(0, state.find(' '));  // sacct: "CANCELLED by 0"
        tasks[index] = {state, f[2], f.size() > 3 ? f[3] : ""};
    }
    return tasks;
}

bool active(const std::string& state) {
    static const char* ended[] = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                                  "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "REVOKED", "SPECIAL_EXIT"};
    for (const char* e : ended)
        if (state == e) return false;
    return !state.empty();
}

// The last line of a task's log, which names what went wrong when the task could start.
std::string log_tail(const fs::path& log) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

// A point whose task has ended and left neither result nor error of its own.
PointStatus ended_without_result(const fs::path& parts, const std::string& job, const std::string& index, const TaskState* t) {
    PointStatus s;
    s.task = job + "_" + index;
    if (t && t->reason == "JobLaunchFailure") {
        s.state = PointState::no_folder;
        s.why = "task " + s.task + (t->node.empty() ? "" : " on " + t->node) +
                " could not start: its node cannot open its log in " + parts.string() +
                " (the parts folder must be on a filesystem every node shares, writable there)";
        return s;
    }
    s.state = PointState::lost;
    const std::string tail = log_tail(parts / ("slurm-" + s.task + ".log"));
    s.why = "task " + s.task + (t ? " ended " + t->state : " is no longer known to Slurm") + " without running it" +
            (tail.empty() ? "" : " (its log: " + tail + ")");
    return s;
}

// Where point `id` stands in task `index` of `job`, given Slurm's word on the task (null: none).
PointStatus in_task(const fs::path& parts, const std::string& id, const std::string& job, const std::string& index,
                    const TaskState* t) {
    std::error_code ec;
    PointStatus s;
    s.task = job + "_" + index;
    if (t && active(t->state)) {
        // The task runs its points in order: one with an error file and no verdict is the one running.
        s.state = t->state == "RUNNING" && fs::exists(parts / (id + ".err"), ec) ? PointState::running : PointState::pending;
        s.why = t->state + (t->reason.empty() || t->reason == "None" ? "" : ", " + t->reason);
        return s;
    }
    return ended_without_result(parts, job, index, t);
}

}  // namespace

std::vector<Submission> read_submissions(const fs::path& parts) {
    std::vector<Submission> subs;
    std::error_code ec;
    for (int n = 1; fs::exists(parts / ("slurm-" + std::to_string(n) + ".tasks"), ec); ++n) {
        Submission s;
        s.number = n;
        const std::string stem = "slurm-" + std::to_string(n);
        s.job = read_first_word(parts / (stem + ".job"));
        std::ifstream in(parts / (stem + ".tasks"));
        for (std::string line; std::getline(in, line);) s.tasks.push_back(words(line));
        subs.push_back(s);
    }
    return subs;
}

std::map<std::string, TaskState> query_job(const std::string& job) {
    std::string out;
    const int rc = run_capture({"squeue", "-h", "-r", "--states=all", "-j", job, "-o", "%i|%T|%r|%N"}, out);
    if (rc == 0) {
        auto tasks = parse_task_rows(out, job);
        if (!tasks.empty()) return tasks;
    } else if (out.find("Invalid job id") == std::string::npos) {
        // Slurm unreachable is not "the job is gone": its points would be submitted twice.
        std::istringstream in(out);
        std::string line;
        std::getline(in, line);
        throw std::runtime_error("cannot ask Slurm about job " + job + ": squeue: " +
                                 (rc == 127 && line.empty() ? "not on the PATH" : line.empty() ? "no message" : line));
    }
    // squeue forgets ended jobs after MinJobAge; accounting, where there is one, keeps them.
    if (run_capture({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State,Reason,NodeList"}, out) == 0)
        return parse_task_rows(out, job);
    return {};
}

std::vector<PointStatus> point_states(const fs::path& parts, const PointList& points) {
    std::vector<PointStatus> st(points.ids.size());
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < points.ids.size(); ++i) index[points.ids[i]] = i;
    std::error_code ec;
    std::vector<bool> settled(st.size(), false);
    for (size_t i = 0; i < st.size(); ++i) {
        const fs::path part = parts / (points.ids[i] + ".csv"), failed = parts / (points.ids[i] + ".failed");
        if (fs::exists(part, ec) && part_file_defect(part).empty()) {
            st[i].state = PointState::done;
            settled[i] = true;
        } else if (fs::exists(failed, ec)) {
            st[i].state = PointState::failed;
            std::ifstream in(failed);
            std::getline(in, st[i].why);
            settled[i] = true;
        }
    }
    // The newest submission of a point decides; Slurm is asked only about jobs with points unsettled.
    const std::vector<Submission> subs = read_submissions(parts);
    for (auto s = subs.rbegin(); s != subs.rend(); ++s) {
        std::map<std::string, TaskState> tasks;
        bool asked = false;
        for (size_t t = 0; t < s->tasks.size(); ++t)
            for (const std::string& id : s->tasks[t]) {
                auto it = index.find(id);
                if (it == index.end() || settled[it->second]) continue;
                settled[it->second] = true;
                if (s->job.empty()) continue;  // never submitted: stays unsent
                if (!asked) tasks = query_job(s->job), asked = true;
                const auto k = tasks.find(std::to_string(t));
                st[it->second] = in_task(parts, id, s->job, std::to_string(t), k == tasks.end() ? nullptr : &k->second);
            }
    }
    return st;
}

const char* state_word(PointState s) {
    switch (s) {
    case PointState::done: return "done";
    case PointState::failed: return "failed";
    case PointState::running: return "running";
    case PointState::pending: return "pending";
    case PointState::unsent: return "pending";
    case PointState::lost: return "lost";
    case PointState::no_folder: return "failed";
    }
    return "?";
}

std::string shell_quote(const std::string& w) {
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int sweep_status(const std::string& out) {
    const fs::path parts = out + ".parts";
    std::ifstream in(parts / "slurm-points.tsv");
    if (!in) {
        std::cerr << "dcusim sweep: " << (parts / "slurm-points.tsv").string() << ": no sweep submitted with --slurm there\n";
        return 2;
    }
    PointList points;
    for (std::string line; std::getline(in, line);) {
        const size_t tab = line.find('\t');
        if (tab == std::string::npos) continue;
        points.ids.push_back(line.substr(0, tab));
        points.texts.push_back(line.substr(tab + 1));
    }
    std::vector<PointStatus> st;
    try {
        st = point_states(parts, points);
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    std::map<std::string, size_t> count;
    for (const auto& s : st) ++count[state_word(s.state)];
    std::cout << out << ": " << st.size() << " points: " << count["done"] << " done, " << count["running"] << " running, "
              << count["failed"] << " failed, " << count["pending"] << " pending, " << count["lost"]
              << " lost (submitted again by the same command)\n";
    for (size_t i = 0; i < st.size(); ++i) {
        if (st[i].state == PointState::done) continue;
        std::cout << state_word(st[i].state) << ' ' << points.ids[i] << ' ' << points.texts[i];
        if (!st[i].task.empty()) std::cout << " [task " << st[i].task << "]";
        if (st[i].state == PointState::unsent) std::cout << ": not submitted yet";
        if (!st[i].why.empty()) std::cout << ": " << st[i].why;
        std::cout << '\n';
    }
    return 0;
}

}  // namespace dcusim
