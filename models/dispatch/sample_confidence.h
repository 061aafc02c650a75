// Whether a mean of measurement windows is known well enough to project with (sampled simulation):
// shared by the sampler's cycles and the projection's DRAM traffic.
#pragma once

#include <cstddef>

namespace dcusim {

// Student's t at 97.5 % (a two-sided 95 % bound) for `dof` >= 1 degrees of freedom; 15 and more take
// the table's last value (a span holds at most 16 windows).
double t95(size_t dof);

// Whether the mean of v[0..n) (n >= 2) is positive and known within `tolerance` of itself at 95 %
// confidence: Student's t of n - 1 degrees of freedom times the standard error, over the values, or,
// failing that, when n is even and holds at least `min_pairs` pairs, over consecutive pairs (batch
// means: windows that alternate, such as write-back bursts every other round, vary far less in pairs
// than alone). Returns the batch that passed (1 or 2), 0 when neither does.
size_t mean_known(const double* v, size_t n, double tolerance, size_t min_pairs);

}  // namespace dcusim
