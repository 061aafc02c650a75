// Predicted against measured, per kernel and counter: what `dcusim validate`
// compares, how it counts the error, and the summaries (MAPE, max, Pearson r).
// The counters pair by name: dcusim emits its predictions under the
// profiler's own names (sim/profiler_counters.h).
#pragma once

#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace dcusim::validate {

struct ValidateError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class ErrorKind {
    Relative,  // |predicted - measured| / measured, in %
    Points,    // |predicted - measured|, in percentage points (hit rates)
    Exact,     // must be equal; the error is |predicted - measured|
};

struct MetricGroup {
    std::string label;                  // cycles, lds_bank_conflicts, ...
    std::vector<std::string> counters;  // summed, on both sides
    ErrorKind kind;
    double min_measured = 0;  // kernels whose measured value is below are not compared (noise)
    double max_measured = std::numeric_limits<double>::infinity();  // nor above (ncu hit rates over 100 %)
    std::string note;         // what is compared and why some kernels are left out
    // When set: the value is 100 x sum(counters) / sum(per), in %, on both sides
    // (a ratio of raw counts; kernels with a zero denominator are left out).
    std::vector<std::string> per = {};
};

// The groups compared for a profiler's counters ("ncu" or "rocprof").
const std::vector<MetricGroup>& metric_groups(const std::string& profiler);

// One kernel of one trace and the measured variant it is.
struct Pair {
    std::string trace;  // relative to the results folder
    size_t kernel = 0;  // index in the trace
    std::string family, variant, scale;
    std::string name() const { return family + "/" + variant; }
};
std::vector<Pair> read_pairs(const std::string& path);

// "family/variant/scale" -> metric -> value, from measurements.csv (long form).
using Measured = std::map<std::string, std::map<std::string, double>>;
Measured read_measurements(const std::string& path);

struct Row {
    std::string kernel, metric;
    double measured = 0, predicted = 0, error = 0;
    bool compared = false;  // false: left out (see the group's note)
};

struct Summary {
    std::string metric;
    ErrorKind kind = ErrorKind::Relative;
    size_t n = 0, exact = 0;  // kernels compared; of them equal
    double mean = 0, max = 0;  // of the errors
    double pearson = std::numeric_limits<double>::quiet_NaN();
    // On log10 of the values (kernels with both above 0): over a range of sizes, the raw r
    // mostly reflects the largest kernels.
    double pearson_log = std::numeric_limits<double>::quiet_NaN();
};

double error_of(ErrorKind k, double measured, double predicted);
double pearson(const std::vector<double>& x, const std::vector<double>& y);
Summary summarize(const MetricGroup& g, const std::vector<Row>& rows);

}  // namespace dcusim::validate
