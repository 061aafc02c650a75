// dcusim sweep --slurm: the points not done go to one Slurm job array (K points per task) through
// sbatch, and the command returns with the job id. Each task runs `dcusim sweep` again with the
// same arguments and its share of the points (--task-list, --task), writing the same part files a
// local run writes, so the CSV assembled at the end is the local run's, byte for byte. Running the
// command again submits what is neither done, failed with its own error, nor still queued; once
// nothing is left it writes the CSV.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "output.h"
#include "subprocess.h"
#include "sweep.h"
#include "sweep_cluster.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

std::string host_name() {
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? buf : "?";
}

PointList point_list(const SweepPlan& plan) {
    PointList l;
    for (const auto& p : plan.points) {
        l.ids.push_back(p.id);
        l.texts.push_back(point_text(plan, p));
    }
    return l;
}

// The arguments that make the same sweep in a task. Paths are kept as given (the script enters the
// submitting folder first): a point's id is made from the words, so other words would be other points.
std::string task_command(const SweepPlan& plan, const fs::path& tasks_file) {
    const SweepArgs& a = plan.args;
    std::string c = shell_quote(self_exe()) + " sweep --quiet --task-list " + shell_quote(fs::absolute(tasks_file).string()) +
                    " --task $((SLURM_ARRAY_TASK_ID + 1))";
    if (!a.config.empty()) c += " --config " + shell_quote(a.config);
    for (const Vary& v : a.vary) {
        std::string vals;
        for (const auto& x : v.values) vals += (vals.empty() ? "" : ",") + x;
        c += " --vary " + shell_quote(v.key + "=" + vals);
    }
    c += " --out " + shell_quote(a.out);
    c += " --";
    for (const auto& t : a.traces) c += " " + shell_quote(t);
    return c;
}

// The job script of submission `n`: `tasks` array tasks.
std::string job_script(const SweepPlan& plan, int n, size_t tasks, size_t points) {
    const SweepArgs& a = plan.args;
    const std::string parts = fs::absolute(plan.parts).string();
    const std::string self = self_exe(), cwd = fs::current_path().string();
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# dcusim sweep --slurm, submission " << n << ": " << points << " points in " << tasks << " array tasks of at most "
      << a.per_task << ". Written by dcusim; sbatch runs it.\n"
      << "#SBATCH --job-name=dcusim-sweep\n"
      << "#SBATCH --array=0-" << tasks - 1 << (a.array_max ? "%" + std::to_string(a.array_max) : "") << "\n"
      << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --output=" << parts << "/slurm-%A_%a.log\n";
    if (!a.partition.empty()) s << "#SBATCH --partition=" << a.partition << "\n";
    if (!a.account.empty()) s << "#SBATCH --account=" << a.account << "\n";
    if (!a.time.empty()) s << "#SBATCH --time=" << a.time << "\n";
    s << "# The parts folder, the traces and dcusim must be on a filesystem every node shares: a node that\n"
      << "# cannot open the log above fails the task at launch (dcusim sweep --status says so).\n"
      << "cd " << shell_quote(cwd) << " || { echo \"dcusim sweep: $(hostname): cannot enter \""
      << shell_quote(cwd + ": the folder the sweep was submitted from must be visible on every node") << "; exit 3; }\n"
      << "[ -x " << shell_quote(self) << " ] || { echo \"dcusim sweep: $(hostname): no \""
      << shell_quote(self + ": dcusim must be visible on every node") << "; exit 3; }\n"
      << "exec " << task_command(plan, plan.parts / ("slurm-" + std::to_string(n) + ".tasks")) << "\n";
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

// Submits `todo` as the next submission; prints `counts` (unless --quiet) and the job id. 0, or 2 after
// a one-line error.
int submit(const SweepPlan& plan, const std::vector<size_t>& todo, const std::string& counts) {
    const SweepArgs& a = plan.args;
    int n = 1;
    std::error_code ec;
    while (fs::exists(plan.parts / ("slurm-" + std::to_string(n) + ".tasks"), ec)) ++n;
    const std::string stem = (plan.parts / ("slurm-" + std::to_string(n))).string();
    std::ostringstream tasks, tsv;
    size_t ntasks = 0;
    for (size_t k = 0; k < todo.size(); k += a.per_task, ++ntasks) {
        for (size_t j = k; j < todo.size() && j < k + a.per_task; ++j) tasks << (j > k ? " " : "") << plan.points[todo[j]].id;
        tasks << '\n';
    }
    for (const auto& p : plan.points) tsv << p.id << '\t' << point_text(plan, p) << '\n';
    try {
        write_files_atomically({{(plan.parts / "slurm-points.tsv").string(), tsv.str()},
                                {stem + ".tasks", tasks.str()},
                                {stem + ".sh", job_script(plan, n, ntasks, todo.size())}});
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    std::string out;
    const int rc = run_capture({"sbatch", "--parsable", stem + ".sh"}, out);
    const std::string job = out.substr(0, out.find_first_of(";\n"));
    if (rc != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
        fs::remove(stem + ".tasks", ec);  // nothing was queued: no submission to wait for
        fs::remove(stem + ".sh", ec);
        std::cerr << "dcusim sweep: sbatch refused the job (" << a.out << "): " << last_line(out) << '\n';
        return 2;
    }
    std::ofstream(stem + ".job") << job << '\n';
    if (!a.quiet) std::cerr << counts << '\n';
    std::cout << "dcusim sweep: submitted job " << job << ": " << todo.size() << " points in " << ntasks
              << " array tasks (" << stem << ".sh); dcusim sweep --status " << a.out << '\n';
    return 0;
}

// Writes the CSV from the parts once every point is done or failed with its own error, listing the
// failures (exit 1 then); with points still out, says so and writes nothing (exit 1).
int collect(const SweepPlan& plan, const std::vector<PointStatus>& st) {
    size_t failed = 0, out = 0;
    for (const auto& s : st) {
        failed += s.state == PointState::failed;
        out += s.state != PointState::failed && s.state != PointState::done;
    }
    if (out) {
        std::cerr << "dcusim sweep: " << out << " of " << st.size() << " points not done yet: " << plan.args.out
                  << " not written (dcusim sweep --status " << plan.args.out << ")\n";
        return 1;
    }
    for (size_t i = 0; i < st.size(); ++i)
        if (st[i].state == PointState::failed)
            std::cerr << "dcusim sweep: point failed (" << point_text(plan, plan.points[i]) << "): " << st[i].why << '\n';
    if (int rc = write_sweep_outputs(plan)) return rc;
    if (failed) {
        std::cerr << "dcusim sweep: " << failed << " point(s) failed; " << plan.args.out << " has the others\n";
        return 1;
    }
    return 0;
}

std::vector<PointStatus> states_checked(const SweepPlan& plan) {
    for (size_t i = 0; i < plan.points.size(); ++i) point_done(plan, i);  // reports and removes corrupt parts
    return point_states(plan.parts, point_list(plan));
}

}  // namespace

int sweep_collect(const SweepPlan& plan) {
    try {
        return collect(plan, states_checked(plan));
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
}

int sweep_slurm(const SweepPlan& plan) {
    // The job script names these after #SBATCH, unquoted: a line break would start a command of its
    // own, and Slurm reads % and \\ in --output as patterns.
    const std::string parts = fs::absolute(plan.parts).string(), cwd = fs::current_path().string();
    for (const std::string& p : {parts, cwd, self_exe()})
        if (p.find_first_of("%\\\n\r") != std::string::npos) {
            std::cerr << "dcusim sweep: --slurm: " << p << ": a path with %, \\ or a line break cannot go into a job script\n";
            return 2;
        }
    std::vector<PointStatus> st;
    try {
        st = states_checked(plan);
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    std::vector<size_t> todo;
    size_t waiting = 0;
    for (size_t i = 0; i < st.size(); ++i) {
        if (st[i].state == PointState::no_folder) {
            // Submitting again would fail the same way: the folder has to move first.
            std::cerr << "dcusim sweep: " << st[i].why << '\n';
            return 2;
        }
        if (st[i].state == PointState::unsent || st[i].state == PointState::lost) todo.push_back(i);
        waiting += st[i].state == PointState::running || st[i].state == PointState::pending;
    }
    if (todo.empty() && !waiting) return collect(plan, st);
    if (todo.empty()) {
        std::cout << "dcusim sweep: " << waiting << " points still queued or running; nothing submitted (dcusim sweep --status "
                  << plan.args.out << ")\n";
        return 0;
    }
    if (!on_path("sbatch")) {
        std::cerr << "dcusim sweep: --slurm: no sbatch on the PATH (run it where Slurm's commands are)\n";
        return 2;
    }
    const std::string counts = "dcusim sweep: " + std::to_string(st.size()) + " points, " +
                               std::to_string(st.size() - todo.size() - waiting) + " done or failed, " + std::to_string(waiting) +
                               " queued or running, " + std::to_string(todo.size()) + " submitted";
    return submit(plan, todo, counts);
}

int sweep_task(const SweepPlan& plan) {
    const SweepArgs& a = plan.args;
    const std::string where = "dcusim sweep: task " + std::to_string(a.task) + " on " + host_name();
    // A node that sees the folder but cannot write there would otherwise fail every point alike.
    const fs::path probe = plan.parts / (".probe-" + host_name() + "-" + std::to_string(getpid()));
    if (!std::ofstream(probe)) {
        std::cerr << where << ": cannot write " << plan.parts.string()
                  << ": the parts folder must be on a filesystem every node shares, writable there\n";
        return 3;
    }
    std::error_code ec;
    fs::remove(probe, ec);
    std::ifstream in(a.task_list);
    std::string line;
    for (long t = 0; t <= a.task; ++t)
        if (!std::getline(in, line)) {
            std::cerr << where << ": " << a.task_list << ": no line " << a.task + 1 << '\n';
            return 2;
        }
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < plan.points.size(); ++i) index[plan.points[i].id] = i;
    std::vector<size_t> todo;
    std::istringstream ids(line);
    for (std::string id; ids >> id;) {
        auto it = index.find(id);
        if (it == index.end()) {
            std::cerr << where << ": point " << id << " is not in this sweep (a trace or the preset changed since it was submitted)\n";
            return 2;
        }
        if (!point_done(plan, it->second)) todo.push_back(it->second);
    }
    const long failed = run_points(plan, todo, 1, true);
    if (failed < 0) return 1;
    std::cout << where << ": " << todo.size() << " points run, " << failed << " failed\n";
    return failed ? 1 : 0;
}

}  // namespace dcusim
