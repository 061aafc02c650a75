// dcusim sweep --slurm: the points not done go to one Slurm job array (K points per task) through
// sbatch (slurm_array.h), and the command returns with the job id. Each task runs `dcusim sweep`
// again with the same arguments and its share of the points (--task-list, --task), writing the
// same part files a local run writes, so the CSV assembled at the end is the local run's, byte for
// byte. Running the command again submits what is neither done, failed with its own error, nor
// still queued; once nothing is left it writes the CSV.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "slurm_array.h"
#include "subprocess.h"
#include "sweep.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

bool part_sound(const fs::path& parts, const std::string& id) {
    std::error_code ec;
    const fs::path part = parts / (id + ".csv");
    return fs::exists(part, ec) && part_file_defect(part).empty();
}

// The sweep as an array. The task's arguments keep the paths as given (the script enters the
// submitting folder first): a point's id is made from the words, so other words would be other points.
ArrayJob array_of(const SweepPlan& plan) {
    const SweepArgs& a = plan.args;
    ArrayJob job;
    job.command = "sweep";
    job.folder = plan.parts;
    for (const auto& p : plan.points) {
        job.points.ids.push_back(p.id);
        job.points.texts.push_back(point_text(plan, p));
    }
    job.done = [parts = plan.parts](const std::string& id) { return part_sound(parts, id); };
    job.before = shell_quote(self_exe()) + " sweep --quiet";
    if (!a.config.empty()) job.after += " --config " + shell_quote(a.config);
    for (const Vary& v : a.vary) {
        std::string vals;
        for (const auto& x : v.values) vals += (vals.empty() ? "" : ",") + x;
        job.after += " --vary " + shell_quote(v.key + "=" + vals);
    }
    job.after += " --out " + shell_quote(a.out) + " --";
    for (const auto& t : a.traces) job.after += " " + shell_quote(t);
    take_slurm_options(job, a);
    job.status_command = "dcusim sweep --status " + a.out;
    return job;
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

void drop_corrupt_parts(const SweepPlan& plan) {
    for (size_t i = 0; i < plan.points.size(); ++i) point_done(plan, i);  // reports and removes them
}

}  // namespace

int sweep_collect(const SweepPlan& plan) {
    drop_corrupt_parts(plan);
    std::vector<PointStatus> st;
    try {
        st = point_states(array_of(plan));
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    return collect(plan, st);
}

int sweep_slurm(const SweepPlan& plan) {
    drop_corrupt_parts(plan);
    std::vector<PointStatus> st;
    const int rc = submit_or_collect(array_of(plan), st);
    return rc >= 0 ? rc : collect(plan, st);
}

int sweep_status(const std::string& out) {
    ArrayJob job;
    job.command = "sweep";
    job.folder = out + ".parts";
    std::ifstream in(job.folder / "slurm-points.tsv");
    if (!in) {
        std::cerr << "dcusim sweep: " << (job.folder / "slurm-points.tsv").string() << ": no sweep submitted with --slurm there\n";
        return 2;
    }
    for (std::string line; std::getline(in, line);) {
        const size_t tab = line.find('\t');
        if (tab == std::string::npos) continue;
        job.points.ids.push_back(line.substr(0, tab));
        job.points.texts.push_back(line.substr(tab + 1));
    }
    job.done = [parts = job.folder](const std::string& id) { return part_sound(parts, id); };
    return print_status(job, out);
}

int sweep_task(const SweepPlan& plan) {
    const SweepArgs& a = plan.args;
    const std::string where = "dcusim sweep: task " + std::to_string(a.task) + " on " + host_name();
    const std::string cannot = check_folder_from_node(array_of(plan), a.task);
    if (!cannot.empty()) {
        std::cerr << cannot << '\n';
        return 3;
    }
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
    // An error file left by an attempt that was cancelled would make --status call the point running.
    for (size_t i : todo) {
        std::error_code ec;
        fs::remove(plan.parts / (plan.points[i].id + ".err"), ec);
    }
    const long failed = run_points(plan, todo, 1, true);
    if (failed < 0) return 1;
    std::cout << where << ": " << todo.size() << " points run, " << failed << " failed\n";
    return failed ? 1 : 0;
}

}  // namespace dcusim
