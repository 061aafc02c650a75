#include "comparison.h"

#include "../csv.h"

#include <cmath>
#include <fstream>

namespace dcusim::validate {

const std::vector<MetricGroup>& metric_groups(const std::string& profiler) {
    static const std::vector<MetricGroup> ncu = {
        {"cycles", {"gpc__cycles_elapsed.max"}, ErrorKind::Relative, 0, std::numeric_limits<double>::infinity(),
         "kernel duration in core cycles"},
        {"lds_bank_conflicts",
         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
         ErrorKind::Exact, 0, std::numeric_limits<double>::infinity(), "shared-memory bank conflicts, loads + stores"},
        {"l1_hit_rate", {"l1tex__t_sector_hit_rate.pct"}, ErrorKind::Points, 0.001, 100,
         "L1 sector hit rate; kernels with no L1 hit measured (0 %) are left out"},
        {"l2_hit_rate", {"lts__t_sectors_srcunit_tex_lookup_hit.sum"}, ErrorKind::Points, 0, 100,
         "L2 sector hit rate of the SMs' own requests (source unit TEX: what the model's L2 sees), "
         "100 x hits / sectors",
         {"lts__t_sectors_srcunit_tex.sum"}},
        {"l2_hit_rate_all", {"lts__t_sector_hit_rate.pct"}, ErrorKind::Points, 0, 100,
         "L2 sector hit rate over all sources: adds the lookups between the H200's two L2 partitions (the model's "
         "with l2.replicate) and traffic outside the kernel, which the model has not (shown, not gated); readings over "
         "100 % are left out"},
        {"dram_read_bytes", {"dram__bytes_read.sum"}, ErrorKind::Relative, 1 << 20, std::numeric_limits<double>::infinity(),
         "kernels that read at least 1 MiB from DRAM"},
        {"dram_write_bytes", {"dram__bytes_write.sum"}, ErrorKind::Relative, 1 << 20, std::numeric_limits<double>::infinity(),
         "kernels that write at least 1 MiB to DRAM"},
        {"instructions", {"smsp__inst_executed.sum"}, ErrorKind::Relative, 0, std::numeric_limits<double>::infinity(),
         "warp instructions executed: how closely the capture's walk of the SASS follows the run (shown, not gated)"},
    };
    static const std::vector<MetricGroup> rocprof = {
        {"cycles", {"GRBM_GUI_ACTIVE"}, ErrorKind::Relative, 0, std::numeric_limits<double>::infinity(), "GPU busy cycles"},
        {"lds_bank_conflicts", {"SQ_LDS_BANK_CONFLICT"}, ErrorKind::Exact, 0, std::numeric_limits<double>::infinity(),
         "LDS bank-conflict cycles"},
        {"l2_hits", {"TCC_HIT"}, ErrorKind::Relative, 1000, std::numeric_limits<double>::infinity(), "L2 hits"},
        {"l2_misses", {"TCC_MISS"}, ErrorKind::Relative, 1000, std::numeric_limits<double>::infinity(), "L2 misses"},
        {"dram_read_requests", {"TCC_EA_RDREQ"}, ErrorKind::Relative, 1000, std::numeric_limits<double>::infinity(),
         "L2 read requests to DRAM"},
        {"dram_write_requests", {"TCC_EA_WRREQ"}, ErrorKind::Relative, 1000, std::numeric_limits<double>::infinity(),
         "L2 write requests to DRAM"},
    };
    if (profiler == "ncu") return ncu;
    if (profiler == "rocprof") return rocprof;
    throw ValidateError("report.profiler = " + profiler + ": no measured counters to compare (use ncu or rocprof)");
}

namespace {

// Reads a CSV with a header; calls `row(fields, line number)` with the fields by column name.
template <typename F>
void read_csv(const std::string& path, const std::vector<std::string>& need, F row) {
    std::ifstream f(path);
    if (!f) throw ValidateError(path + ": cannot open");
    std::string line;
    if (!std::getline(f, line)) throw ValidateError(path + ":1: empty file, expected a header");
    auto header = csv_fields(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
    for (const auto& n : need)
        if (!col.count(n)) throw ValidateError(path + ":1: no column '" + n + "'");
    for (unsigned n = 2; std::getline(f, line); ++n) {
        if (line.empty()) continue;
        auto cells = csv_fields(line);
        if (cells.size() != header.size())
            throw ValidateError(path + ":" + std::to_string(n) + ": " + std::to_string(cells.size()) + " fields, the header has " +
                                std::to_string(header.size()));
        std::map<std::string, std::string> byname;
        for (const auto& [name, i] : col) byname[name] = cells[i];
        row(byname, n);
    }
}

// A finite number filling the whole cell; errors name the file, line and column.
double number(const std::string& s, const std::string& where, const std::string& column) {
    try {
        size_t used = 0;
        double v = std::stod(s, &used);
        if (used == s.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {  // invalid_argument, out_of_range: reported below
    }
    throw ValidateError(where + ": column '" + column + "': '" + s + "' is not a number");
}

}  // namespace

std::vector<Pair> read_pairs(const std::string& path) {
    std::vector<Pair> out;
    read_csv(path, {"trace", "kernel", "family", "variant", "scale"}, [&](auto& r, unsigned n) {
        double k = number(r.at("kernel"), path + ":" + std::to_string(n), "kernel");
        // Past 2^32 a double's conversion to an index is undefined (1e20 paired kernel 0).
        if (k < 0 || k != std::floor(k) || k >= 4294967296.0)
            throw ValidateError(path + ":" + std::to_string(n) + ": column 'kernel': kernel index " + r.at("kernel") +
                                " is not a whole number from 0 to 4294967295");
        out.push_back({r.at("trace"), size_t(k), r.at("family"), r.at("variant"), r.at("scale")});
    });
    if (out.empty()) throw ValidateError(path + ": no pairs");
    return out;
}

Measured read_measurements(const std::string& path) {
    Measured m;
    read_csv(path, {"family", "variant", "scale", "metric", "value"}, [&](auto& r, unsigned n) {
        const std::string& v = r.at("value");
        if (v.empty()) return;  // a counter the profiler did not report for this kernel
        m[r.at("family") + "/" + r.at("variant") + "/" + r.at("scale")][r.at("metric")] =
            number(v, path + ":" + std::to_string(n), "value");
    });
    return m;
}

double error_of(ErrorKind k, double measured, double predicted) {
    switch (k) {
        case ErrorKind::Relative: return measured != 0 ? 100.0 * std::fabs(predicted - measured) / std::fabs(measured) : 0.0;
        default: return std::fabs(predicted - measured);
    }
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
    const size_t n = x.size();
    if (n < 2 || y.size() != n) return std::numeric_limits<double>::quiet_NaN();
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
    mx /= double(n);
    my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : std::numeric_limits<double>::quiet_NaN();
}

Summary summarize(const MetricGroup& g, const std::vector<Row>& rows) {
    Summary s;
    s.metric = g.label;
    s.kind = g.kind;
    std::vector<double> xm, xp;
    double sum = 0;
    for (const auto& r : rows) {
        if (r.metric != g.label || !r.compared) continue;
        ++s.n;
        s.exact += r.measured == r.predicted ? 1 : 0;
        sum += r.error;
        s.max = std::max(s.max, r.error);
        xm.push_back(r.measured);
        xp.push_back(r.predicted);
    }
    s.mean = s.n ? sum / double(s.n) : 0;
    s.pearson = pearson(xm, xp);
    std::vector<double> lm, lp;
    for (size_t i = 0; i < xm.size(); ++i)
        if (xm[i] > 0 && xp[i] > 0) {
            lm.push_back(std::log10(xm[i]));
            lp.push_back(std::log10(xp[i]));
        }
    s.pearson_log = pearson(lm, lp);
    return s;
}

}  // namespace dcusim::validate
