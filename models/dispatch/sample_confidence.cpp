#include "sample_confidence.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dcusim {

double t95(size_t dof) {
    static constexpr double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131};
    assert(dof >= 1);
    return t[std::min(dof, sizeof t / sizeof t[0]) - 1];
}

namespace {
// Whether the mean of v[0..n) taken in batches of `batch` consecutive values is positive and known
// within `tolerance` of itself at 95 % confidence.
bool batch_mean_known(const double* v, size_t n, size_t batch, double tolerance) {
    const size_t m = n / batch;
    double sum = 0;
    for (size_t i = 0; i < m * batch; ++i) sum += v[i];
    const double mean = sum / double(m);
    if (mean <= 0) return false;
    double sq = 0;
    for (size_t b = 0; b < m; ++b) {
        double x = 0;
        for (size_t i = 0; i < batch; ++i) x += v[b * batch + i];
        sq += (x - mean) * (x - mean);
    }
    return t95(m - 1) * std::sqrt(sq / double(m - 1)) / std::sqrt(double(m)) <= tolerance * mean;
}
}  // namespace

size_t mean_known(const double* v, size_t n, double tolerance, size_t min_pairs) {
    assert(n >= 2);
    if (batch_mean_known(v, n, 1, tolerance)) return 1;
    if (n % 2 == 0 && n / 2 >= std::max<size_t>(2, min_pairs) && batch_mean_known(v, n, 2, tolerance)) return 2;
    return 0;
}

}  // namespace dcusim
