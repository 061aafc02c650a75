// dcusim validate DIR --slurm (validate_slurm.h). A point is one trace's replay, named by a hash of
// the preset's settings and the trace (with its size and modification time: an edited trace runs
// again); its result is ID.json, as `dcusim run --json` writes it.
#include "validate_slurm.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "slurm_array.h"
#include "subprocess.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

std::string replay_id(const ValidateArgs& o, const std::string& trace) {
    std::error_code ec;
    const fs::path t = fs::path(o.dir) / trace;
    std::string s = t.string() + '\n' + std::to_string(fs::file_size(t, ec)) + ':' +
                    std::to_string(fs::last_write_time(t, ec).time_since_epoch().count());
    for (const auto& w : o.settings) s += '\n' + w;
    uint64_t h = 1469598103934665603ull;  // FNV-1a, as the sweep's point ids
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

bool json_sound(const fs::path& f) {
    std::ifstream in(f);
    if (!in) return false;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return !j.is_discarded() && j.contains("kernels");
}

ArrayJob array_of(const ValidateArgs& o, const std::vector<std::string>& traces) {
    ArrayJob job;
    job.command = "validate";
    job.folder = fs::path(o.out) / "slurm-runs";
    for (const auto& t : traces) {
        job.points.ids.push_back(replay_id(o, t));
        job.points.texts.push_back(t);
    }
    job.done = [f = job.folder](const std::string& id) { return json_sound(f / (id + ".json")); };
    job.before = shell_quote(self_exe()) + " validate --quiet";
    if (!o.config.empty()) job.after += " --config " + shell_quote(o.config);
    job.after += " --out " + shell_quote(o.out) + " -- " + shell_quote(o.dir);
    take_slurm_options(job, o);
    job.status_command = "dcusim validate " + o.dir + (o.config.empty() ? "" : " --config " + o.config) + " --out " + o.out + " --status";
    return job;
}

// One array task: its line of the task list, each replay in turn, as the local run starts them.
int run_task(const ValidateArgs& o, const std::vector<std::string>& traces, const ArrayJob& job) {
    const std::string where = "dcusim validate: task " + std::to_string(o.task) + " on " + host_name();
    const std::string cannot = check_folder_from_node(job, o.task);
    if (!cannot.empty()) {
        std::cerr << cannot << '\n';
        return 3;
    }
    std::ifstream in(o.task_list);
    std::string line;
    for (long t = 0; t <= o.task; ++t)
        if (!std::getline(in, line)) {
            std::cerr << where << ": " << o.task_list << ": no line " << o.task + 1 << '\n';
            return 2;
        }
    std::vector<size_t> todo;
    std::istringstream ids(line);
    for (std::string id; ids >> id;) {
        size_t i = 0;
        while (i < traces.size() && job.points.ids[i] != id) ++i;
        if (i == traces.size()) {
            std::cerr << where << ": replay " << id << " is not in this folder (a trace or the preset changed since it was submitted)\n";
            return 2;
        }
        if (job.done(id)) continue;
        todo.push_back(i);
        // An error file left by an attempt that was cancelled would make --status call it running.
        std::error_code ec;
        fs::remove(job.folder / (id + ".err"), ec);
    }
    const std::string self = self_exe();
    size_t failed = 0;
    auto start = [&](size_t k) {
        const fs::path base = job.folder / job.points.ids[todo[k]];
        std::vector<std::string> argv = {"dcusim", "run", "--quiet", "--json", base.string() + ".tmp"};
        argv.insert(argv.end(), o.settings.begin(), o.settings.end());
        argv.push_back((fs::path(o.dir) / traces[todo[k]]).string());
        return spawn(self, argv, base.string() + ".err");
    };
    auto done = [&](size_t k, bool ok) {
        const std::string base = (job.folder / job.points.ids[todo[k]]).string();
        std::error_code ec;
        if (ok && fs::exists(base + ".tmp", ec)) {
            fs::rename(base + ".tmp", base + ".json", ec);
            fs::remove(base + ".err", ec);
            fs::remove(base + ".failed", ec);
        } else {
            ++failed;
            std::ofstream(base + ".failed") << first_line(base + ".err") << '\n';
        }
        return true;
    };
    try {
        run_parallel(todo.size(), 1, start, done);
    } catch (const std::runtime_error& e) {
        std::cerr << where << ": " << e.what() << '\n';
        return 1;
    }
    std::cout << where << ": " << todo.size() << " replays run, " << failed << " failed\n";
    return failed ? 1 : 0;
}

}  // namespace

int validate_slurm(const ValidateArgs& o, const std::vector<std::string>& traces, std::map<std::string, nlohmann::json>& sims) {
    const ArrayJob job = array_of(o, traces);
    std::error_code ec;
    fs::create_directories(job.folder, ec);
    if (ec || !fs::is_directory(job.folder, ec)) {
        std::cerr << "dcusim validate: " << job.folder.string() << ": cannot make the folder of replays\n";
        return 2;
    }
    if (o.task >= 0) return run_task(o, traces, job);
    if (o.status) return print_status(job, job.folder.string());
    std::vector<PointStatus> st;
    if (int rc = submit_or_collect(job, st); rc >= 0) return rc;
    // As a local validation: a trace that cannot be replayed fails it.
    for (size_t i = 0; i < st.size(); ++i)
        if (st[i].state == PointState::failed) {
            std::cerr << "dcusim validate: " << traces[i] << ": " << st[i].why << '\n';
            return 2;
        }
    for (size_t i = 0; i < traces.size(); ++i) {
        std::ifstream in(job.folder / (job.points.ids[i] + ".json"));
        sims[traces[i]] = nlohmann::json::parse(in);
    }
    return -1;
}

}  // namespace dcusim
