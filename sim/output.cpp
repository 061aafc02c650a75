#include "output.h"
#include "csv.h"
#include "preset_registry.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace dcusim {

namespace {
struct PcColumn {
    const char* name;
    uint64_t PcCounters::*field;
};
const PcColumn kPcColumns[] = {
    {"lds.bank_conflict_cycles", &PcCounters::lds_conflict_cycles},
    {"const.serialization_cycles", &PcCounters::const_serialization_cycles},
    {"l1.misses", &PcCounters::l1_misses},
    {"l2.misses", &PcCounters::l2_misses},
    {"dram.bytes", &PcCounters::dram_bytes},
    {"stall.cycles", &PcCounters::stall_cycles},
};
}  // namespace

static std::string number(double v) {
    char buf[64];
    if (std::floor(v) == v && std::fabs(v) < 9.007199254740992e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else
        std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

static nlohmann::ordered_json stats_json(const StatMap& m) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [k, v] : m) {
        if (std::floor(v) == v && v >= 0 && v < 9.007199254740992e15)
            j[k] = static_cast<uint64_t>(v);
        else
            j[k] = v;
    }
    return j;
}

// With sample.mode auto, what each kernel's figures are: projected, or why it ran in full.
static void print_sample_notes(std::ostream& o, const RunResult& r) {
    bool any = false;
    for (const auto& k : r.kernels) any |= !k.sample_note.empty();
    if (!any) return;
    o << "\nsampling (sample.mode auto):\n";
    for (size_t i = 0; i < r.kernels.size(); ++i)
        if (!r.kernels[i].sample_note.empty()) o << "  " << i << ":" << r.kernels[i].name << ": " << r.kernels[i].sample_note << '\n';
}

void print_host_summary(std::ostream& o, const RunResult& r) {
    const auto it = r.total.find("timeline.ns");
    if (it == r.total.end()) return;
    auto at = [&](const char* k) { return number(r.total.at(k)); };
    o << "host timeline: " << number(it->second) << " ns end to end (copies " << at("copy.ns") << " ns, kernels " << at("kernel.ns")
      << " ns, overlapped " << at("overlap.ns") << " ns; " << at("copy.h2d_bytes") << " bytes h2d, " << at("copy.d2h_bytes")
      << " d2h, " << at("copy.d2d_bytes") << " d2d)\n";
}

void print_summary(std::ostream& o, const Config& cfg, const std::vector<std::string>& traces, const RunResult& r) {
    o << "dcusim: preset " << cfg.source() << " (" << cfg.u("cu.count") << " CUs, wave" << cfg.u("cu.wave_size") << ", "
      << cfg.str("cu.clock_mhz") << " MHz)\n";
    for (const auto& t : traces) o << "trace " << t << '\n';
    // One column per kernel (then the total), one row per statistic; past a
    // few kernels, one line per kernel and the total's column only.
    constexpr size_t kMaxColumns = 6;
    std::vector<std::string> cols;
    std::vector<const StatMap*> col_stats;
    if (r.kernels.size() <= kMaxColumns) {
        for (size_t i = 0; i < r.kernels.size(); ++i) {
            cols.push_back(std::to_string(i) + ":" + r.kernels[i].name + (r.kernels[i].projected ? " (projected)" : ""));
            col_stats.push_back(&r.kernels[i].stats);
        }
    } else {
        o << "kernel                                       cycles     waves  lds.conflict_cyc  const.requests  stall.wait_cyc\n";
        for (size_t i = 0; i < r.kernels.size(); ++i) {
            const StatMap& m = r.kernels[i].stats;
            char line[256];
            std::snprintf(line, sizeof line, "%-40.40s %11s %9s %17s %15s %15s\n",
                          (std::to_string(i) + ":" + r.kernels[i].name).c_str(), number(m.at("cycles")).c_str(),
                          number(m.at("waves")).c_str(), number(m.at("lds.bank_conflict_cycles")).c_str(),
                          number(m.at("const.requests")).c_str(), number(m.at("stall.wait_cycles")).c_str());
            o << line;
        }
        o << '\n';
    }
    bool any_projected = false;
    for (const auto& k : r.kernels) any_projected |= k.projected;
    cols.push_back(any_projected ? "total (projected)" : "total");
    col_stats.push_back(&r.total);
    std::set<std::string> keys;
    for (const auto& k : r.kernels)
        for (const auto& [key, v] : k.stats) keys.insert(key);
    size_t kw = 10;
    for (const auto& k : keys) kw = std::max(kw, k.size());
    std::vector<size_t> w;
    for (const auto& c : cols) w.push_back(std::max<size_t>(12, c.size()));
    o << std::left << std::setw(int(kw)) << "stat";
    for (size_t i = 0; i < cols.size(); ++i) o << "  " << std::right << std::setw(int(w[i])) << cols[i];
    o << '\n';
    for (const auto& key : keys) {
        o << std::left << std::setw(int(kw)) << key;
        for (size_t i = 0; i < cols.size(); ++i) {
            const StatMap& m = *col_stats[i];
            auto it = m.find(key);
            o << "  " << std::right << std::setw(int(w[i])) << (it == m.end() ? std::string("-") : number(it->second));
        }
        o << '\n';
    }
    if (r.kernels.empty()) o << "(no kernels in the traces)\n";
    print_sample_notes(o, r);
}

std::string to_json(const Config& cfg, const std::vector<std::string>& traces, const RunResult& r) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json preset = nlohmann::ordered_json::object();
    for (const auto& d : preset_registry::keys()) {
        if (d.type == ParamType::Choice) preset[d.key] = cfg.str(d.key);
        else if (d.type == ParamType::Real) preset[d.key] = cfg.real(d.key);
        else if (d.type == ParamType::SizeList) preset[d.key] = cfg.sizes(d.key);
        else preset[d.key] = cfg.u(d.key);
    }
    j["preset"] = preset;
    j["preset_source"] = cfg.source();
    j["traces"] = traces;
    j["kernels"] = nlohmann::ordered_json::array();
    for (const auto& k : r.kernels) {
        nlohmann::ordered_json kj = {{"name", k.name}};
        if (!k.sample_note.empty()) {
            kj["sample"] = {{"projected", k.projected}, {"note", k.sample_note}};
            auto ms = nlohmann::ordered_json::array();
            for (const SampleMeasurement& m : k.sample_measurements)
                ms.push_back({{"window_cycles", m.windows}, {"window_burstiness", m.burstiness}, {"span_first_window", m.span_first},
                              {"workgroups_per_window", m.workgroups_per_window}, {"cycles_per_workgroup", m.rate},
                              {"workgroups_skipped", m.skipped}});
            kj["sample"]["measurements"] = ms;
        }
        kj["stats"] = stats_json(k.stats);
        if (!k.pcs.empty()) {
            kj["pcs"] = nlohmann::ordered_json::array();
            for (const auto& e : k.pcs) {
                nlohmann::ordered_json pj = {{"pc", e.pc}, {"line", e.line}, {"instructions", e.counters.instructions}};
                for (const PcColumn& col : kPcColumns) pj[col.name] = e.counters.*col.field;
                kj["pcs"].push_back(pj);
            }
        }
        j["kernels"].push_back(kj);
    }
    j["total"] = stats_json(r.total);
    return j.dump(2) + "\n";
}


void print_pc_report(std::ostream& o, const RunResult& r, size_t top) {
    for (size_t k = 0; k < r.kernels.size(); ++k) {
        const auto& pcs = r.kernels[k].pcs;
        o << "\nkernel " << k << ": " << r.kernels[k].name << ": top instructions\n";
        for (const PcColumn& col : kPcColumns) {
            std::vector<const PcEntry*> v;
            for (const auto& e : pcs)
                // LDS instructions are listed even when conflict-free: a padded kernel shows its zeros.
                if (e.counters.*col.field || (col.field == &PcCounters::lds_conflict_cycles && e.counters.lds_instructions))
                    v.push_back(&e);
            std::stable_sort(v.begin(), v.end(), [&](const PcEntry* a, const PcEntry* b) { return a->counters.*col.field > b->counters.*col.field; });
            if (v.empty()) continue;
            o << "  " << col.name << '\n';
            for (size_t i = 0; i < v.size() && i < top; ++i) {
                char line[200];
                std::snprintf(line, sizeof line, "    pc 0x%-8llx %-28s %14llu\n", static_cast<unsigned long long>(v[i]->pc),
                              v[i]->line.c_str(), static_cast<unsigned long long>(v[i]->counters.*col.field));
                o << line;
            }
        }
    }
}

std::string to_csv(const RunResult& r) {
    std::set<std::string> keys;
    for (const auto& k : r.kernels)
        for (const auto& [key, v] : k.stats) keys.insert(key);
    std::ostringstream o;
    o << "kernel,name";
    for (const auto& k : keys) o << ',' << k;
    o << '\n';
    auto row = [&](const std::string& idx, const std::string& name, const StatMap& m) {
        o << idx << ',' << csv_field(name);
        for (const auto& k : keys) {
            auto it = m.find(k);
            o << ',' << (it == m.end() ? std::string() : number(it->second));
        }
        o << '\n';
    };
    for (size_t i = 0; i < r.kernels.size(); ++i) row(std::to_string(i), r.kernels[i].name, r.kernels[i].stats);
    row("total", "", r.total);
    return o.str();
}

// Where a write to `path` lands: a symbolic link's final target, so the link stays a link.
static std::filesystem::path write_target(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p(path);
    // Link by link (a dangling one too: its target is yet to be made); 40 as the kernel's own limit.
    for (int hops = 0; hops < 40 && fs::is_symlink(p, ec); ++hops) {
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) break;
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    return p;
}

void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files) {
    // Every file goes to a temporary name in its target's folder first; only once all are written
    // are they renamed, so a failure leaves none of them (the README's promise: all or none).
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged;  // temporary, target
    auto fail = [&](const std::string& path, int err) {
        for (const auto& [tmp, target] : staged) std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot write (" + std::strerror(err) + ")");
    };
    std::error_code ec;
    for (size_t i = 0; i < files.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (std::filesystem::weakly_canonical(files[i].first, ec) == std::filesystem::weakly_canonical(files[j].first, ec))
                throw std::runtime_error(files[i].first + ": named for two outputs");
    for (const auto& [path, content] : files) {
        const std::filesystem::path target = write_target(path);
        std::filesystem::path tmp = target;
        tmp += ".tmp" + std::to_string(::getpid());
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        int err = errno;
        if (!f) fail(path, err);
        staged.emplace_back(tmp, target);
        f << content;
        f.flush();
        err = errno;
        if (!f) fail(path, err ? err : EIO);
    }
    for (size_t i = 0; i < staged.size(); ++i)
        if (std::rename(staged[i].first.c_str(), staged[i].second.c_str()) != 0) {
            const int err = errno;
            staged.erase(staged.begin(), staged.begin() + long(i));  // those are in place already
            fail(files[i].first, err);
        }
}

void write_file_atomically(const std::string& path, const std::string& content) { write_files_atomically({{path, content}}); }

}  // namespace dcusim
