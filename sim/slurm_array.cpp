// Simulations as one Slurm job array (slurm_array.h): where each point stands, --status, the job
// script and its submission. Slurm is asked about tasks that have no result yet; what it says decides
// whether a point is waiting, lost (to submit again) or could not start because its node cannot see
// the folder.
#include "slurm_array.h"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <stdexcept>
#include <sstream>

#include "output.h"
#include "subprocess.h"

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
                " (the folder must be on a filesystem every node shares, writable there)";
        return s;
    }
    s.state = PointState::lost;
    const std::string tail = log_tail(parts / ("slurm-" + s.task + ".log"));
    s.why = "task " + s.task + (t ? " ended " + t->state : " is no longer known to Slurm") + " without finishing it" +
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
    std::map<std::string, TaskState> tasks;
    const int rc = run_capture({"squeue", "-h", "-r", "--states=all", "-j", job, "-o", "%i|%T|%r|%N"}, out);
    if (rc == 0) {
        tasks = parse_task_rows(out, job);
    } else if (out.find("Invalid job id") == std::string::npos) {
        // Slurm unreachable is not "the job is gone": its points would be submitted twice.
        std::istringstream in(out);
        std::string line;
        std::getline(in, line);
        throw std::runtime_error("cannot ask Slurm about job " + job + ": squeue: " +
                                 (rc == 127 && line.empty() ? "not on the PATH" : line.empty() ? "no message" : line));
    }
    // squeue forgets ended tasks after MinJobAge; accounting, where there is one, keeps them.
    // squeue's word stands where both have one.
    if (run_capture({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State,Reason,NodeList"}, out) == 0)
        for (const auto& [index, t] : parse_task_rows(out, job)) tasks.emplace(index, t);
    return tasks;
}

std::vector<PointStatus> point_states(const ArrayJob& job) {
    const fs::path& parts = job.folder;
    const PointList& points = job.points;
    std::vector<PointStatus> st(points.ids.size());
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < points.ids.size(); ++i) index[points.ids[i]] = i;
    std::error_code ec;
    std::vector<bool> settled(st.size(), false);
    for (size_t i = 0; i < st.size(); ++i) {
        const fs::path failed = parts / (points.ids[i] + ".failed");
        if (job.done(points.ids[i])) {
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
                if (it == index.end()) continue;
                PointStatus& p = st[it->second];
                // A failure names the task that ran it, whose log may say more.
                if (p.state == PointState::failed && p.task.empty() && !s->job.empty()) p.task = s->job + "_" + std::to_string(t);
                if (settled[it->second]) continue;
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

int print_status(const ArrayJob& job, const std::string& name) {
    std::vector<PointStatus> st;
    try {
        st = point_states(job);
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim " << job.command << ": " << e.what() << '\n';
        return 2;
    }
    std::map<std::string, size_t> count;
    for (const auto& s : st) ++count[state_word(s.state)];
    std::cout << name << ": " << st.size() << " points: " << count["done"] << " done, " << count["running"] << " running, "
              << count["failed"] << " failed, " << count["pending"] << " pending, " << count["lost"]
              << " lost (submitted again by the same command)\n";
    for (size_t i = 0; i < st.size(); ++i) {
        if (st[i].state == PointState::done) continue;
        std::cout << state_word(st[i].state) << ' ' << job.points.ids[i] << ' ' << job.points.texts[i];
        if (!st[i].task.empty()) std::cout << " [task " << st[i].task << "]";
        if (st[i].state == PointState::unsent) std::cout << ": not submitted yet";
        if (!st[i].why.empty()) std::cout << ": " << st[i].why;
        std::cout << '\n';
    }
    return 0;
}

std::string host_name() {
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? buf : "?";
}

std::string check_folder_from_node(const ArrayJob& job, long task) {
    // A node that sees the folder but cannot write there would otherwise fail every point alike.
    const fs::path probe = job.folder / (".probe-" + host_name() + "-" + std::to_string(getpid()));
    if (!std::ofstream(probe))
        return "dcusim " + job.command + ": task " + std::to_string(task) + " on " + host_name() + ": cannot write " +
               job.folder.string() + ": the folder must be on a filesystem every node shares, writable there";
    std::error_code ec;
    fs::remove(probe, ec);
    return "";
}

namespace {

// The job script of submission `n`: `tasks` array tasks of `points` points.
std::string job_script(const ArrayJob& job, int n, size_t tasks, size_t points) {
    const std::string folder = fs::absolute(job.folder).string();
    const std::string self = self_exe(), cwd = fs::current_path().string();
    const std::string list = (fs::absolute(job.folder) / ("slurm-" + std::to_string(n) + ".tasks")).string();
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# dcusim " << job.command << " --slurm, submission " << n << ": " << points << " points in " << tasks
      << " array tasks of at most " << job.per_task << ". Written by dcusim; sbatch runs it.\n"
      << "#SBATCH --job-name=dcusim-" << job.command << "\n"
      << "#SBATCH --array=0-" << tasks - 1 << (job.array_max ? "%" + std::to_string(job.array_max) : "") << "\n"
      << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --output=" << folder << "/slurm-%A_%a.log\n";
    if (!job.partition.empty()) s << "#SBATCH --partition=" << job.partition << "\n";
    if (!job.account.empty()) s << "#SBATCH --account=" << job.account << "\n";
    if (!job.time.empty()) s << "#SBATCH --time=" << job.time << "\n";
    s << "# The folder of results, the traces and dcusim must be on a filesystem every node shares: a node\n"
      << "# that cannot open the log above fails the task at launch (--status says so).\n"
      << "cd " << shell_quote(cwd) << " || { echo \"dcusim " << job.command << ": $(hostname): cannot enter \""
      << shell_quote(cwd + ": the folder the job was submitted from must be visible on every node") << "; exit 3; }\n"
      << "[ -x " << shell_quote(self) << " ] || { echo \"dcusim " << job.command << ": $(hostname): no \""
      << shell_quote(self + ": dcusim must be visible on every node") << "; exit 3; }\n"
      << "exec " << job.before << " --task-list " << shell_quote(list) << " --task $((SLURM_ARRAY_TASK_ID + 1))" << job.after
      << "\n";
    return s.str();
}

// The last line of what a command said, for a one-line error.
std::string last_line(const std::string& out) {
    std::istringstream in(out);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last.empty() ? "no message" : last;
}

// Submits `todo` as the next submission; prints `counts` (unless quiet) and the job id. 0, or 2
// after a one-line error.
int submit(const ArrayJob& job, const std::vector<size_t>& todo, const std::string& counts) {
    const std::string prefix = "dcusim " + job.command + ": ";
    // The job script names these after #SBATCH, unquoted: a line break would start a command of its
    // own, and Slurm reads % and \ in --output as patterns.
    for (const std::string& p : {fs::absolute(job.folder).string(), fs::current_path().string(), self_exe()})
        if (p.find_first_of("%\\\n\r") != std::string::npos) {
            std::cerr << prefix << "--slurm: " << p << ": a path with %, \\ or a line break cannot go into a job script\n";
            return 2;
        }
    if (!on_path("sbatch")) {
        std::cerr << prefix << "--slurm: no sbatch on the PATH (run it where Slurm's commands are)\n";
        return 2;
    }
    int n = 1;
    std::error_code ec;
    while (fs::exists(job.folder / ("slurm-" + std::to_string(n) + ".tasks"), ec)) ++n;
    const std::string stem = (job.folder / ("slurm-" + std::to_string(n))).string();
    std::ostringstream tasks, tsv;
    size_t ntasks = 0;
    for (size_t k = 0; k < todo.size(); k += job.per_task, ++ntasks) {
        for (size_t j = k; j < todo.size() && j < k + job.per_task; ++j) tasks << (j > k ? " " : "") << job.points.ids[todo[j]];
        tasks << '\n';
    }
    for (size_t i = 0; i < job.points.ids.size(); ++i) tsv << job.points.ids[i] << '\t' << job.points.texts[i] << '\n';
    try {
        write_files_atomically({{(job.folder / "slurm-points.tsv").string(), tsv.str()},
                                {stem + ".tasks", tasks.str()},
                                {stem + ".sh", job_script(job, n, ntasks, todo.size())}});
    } catch (const std::runtime_error& e) {
        std::cerr << prefix << e.what() << '\n';
        return 2;
    }
    std::string out;
    const int rc = run_capture({"sbatch", "--parsable", stem + ".sh"}, out);
    const std::string id = out.substr(0, out.find_first_of(";\n"));
    if (rc != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        fs::remove(stem + ".tasks", ec);  // nothing was queued: no submission to wait for
        fs::remove(stem + ".sh", ec);
        std::cerr << prefix << "sbatch refused the job (" << job.folder.string() << "): " << last_line(out) << '\n';
        return 2;
    }
    std::ofstream(stem + ".job") << id << '\n';
    if (!job.quiet) std::cerr << counts << '\n';
    std::cout << prefix << "submitted job " << id << ": " << todo.size() << " points in " << ntasks << " array tasks ("
              << stem << ".sh); " << job.status_command << '\n';
    return 0;
}

}  // namespace

int submit_or_collect(const ArrayJob& job, std::vector<PointStatus>& st) {
    const std::string prefix = "dcusim " + job.command + ": ";
    try {
        st = point_states(job);
    } catch (const std::runtime_error& e) {
        std::cerr << prefix << e.what() << '\n';
        return 2;
    }
    std::vector<size_t> todo;
    size_t waiting = 0;
    for (size_t i = 0; i < st.size(); ++i) {
        if (st[i].state == PointState::no_folder) {
            // Submitting again would fail the same way: the folder has to move first.
            std::cerr << prefix << st[i].why << '\n';
            return 2;
        }
        if (st[i].state == PointState::unsent || st[i].state == PointState::lost) todo.push_back(i);
        waiting += st[i].state == PointState::running || st[i].state == PointState::pending;
    }
    if (todo.empty() && !waiting) return -1;
    if (todo.empty()) {
        std::cout << prefix << waiting << " points still queued or running; nothing submitted (" << job.status_command << ")\n";
        return 0;
    }
    const std::string counts = prefix + std::to_string(st.size()) + " points, " + std::to_string(st.size() - todo.size() - waiting) +
                               " done or failed, " + std::to_string(waiting) + " queued or running, " +
                               std::to_string(todo.size()) + " submitted";
    return submit(job, todo, counts);
}

}  // namespace dcusim
