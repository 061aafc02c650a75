// Sparse matrix-vector product y = A x, A in CSR: a banded random matrix (4 to 20 non-zeros a row,
// columns within 512 of the diagonal, as a mesh's would be). CSR scalar: a thread a row (blocks of 64
// threads); CSR vector: a warp a row, lanes striding the row, a shuffle sum.
// 2^15 rows with --small, 2^21 full.
#include "apps.h"

__global__ void spmv_scalar(float* y, const int* rowptr, const int* cols, const float* vals, const float* x, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) acc += vals[j] * x[cols[j]];
    y[r] = acc;
}

__global__ void spmv_vector(float* y, const int* rowptr, const int* cols, const float* vals, const float* x, int rows) {
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / APPS_WARP, lane = threadIdx.x % APPS_WARP;
    if (r >= rows) return;
    float acc = 0;
    for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += APPS_WARP) acc += vals[j] * x[cols[j]];
    acc = warp_sum(acc);
    if (lane == 0) y[r] = acc;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int rows = small ? 1 << 15 : 1 << 21;
    std::vector<int> rowptr(rows + 1, 0), cols;
    apps::Lcg r(7);
    for (int i = 0; i < rows; ++i) {
        int nz = 4 + int(r.below(17));
        for (int k = 0; k < nz; ++k) {
            int c = i + int(r.below(1025)) - 512;
            cols.push_back(c < 0 ? c + rows : c >= rows ? c - rows : c);
        }
        rowptr[i + 1] = int(cols.size());
    }
    const size_t nnz = cols.size();
    int *d_rowptr = apps::upload(rowptr), *d_cols = apps::upload(cols);
    float *vals = apps::random_floats(nnz, 8), *x = apps::random_floats(rows, 9), *y = apps::zeros<float>(rows);
    const double bytes = 8.0 * nnz + 12.0 * rows;
    validation::measure(single, "spmv", "csr_scalar", rows, bytes, [&] {
        hipLaunchKernelGGL(spmv_scalar, dim3(rows / 64), dim3(64), 0, 0, y, d_rowptr, d_cols, vals, x, rows);
    });
    validation::measure(single, "spmv", "csr_vector", rows, bytes, [&] {
        hipLaunchKernelGGL(spmv_vector, dim3(rows / (256 / APPS_WARP)), dim3(256), 0, 0, y, d_rowptr, d_cols, vals, x, rows);
    });
    HIP_CHECK(hipFree(d_rowptr));
    HIP_CHECK(hipFree(d_cols));
    for (float* p : {vals, x, y}) HIP_CHECK(hipFree(p));
    return 0;
}
