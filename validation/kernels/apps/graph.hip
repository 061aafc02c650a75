// Irregular graph kernels: pointer chasing (each thread follows 16 links of one random cycle through
// all nodes, every load depending on the one before), and one level of a breadth-first search on a CSR
// graph of mesh-like locality (degree 4 to 8, neighbours within 256 of a node): the frontier's threads
// read their neighbours' levels and bid for the unvisited ones with atomicMin (the same work every launch). Chase: 2^20 nodes and
// 16,896 walkers with --small, 2^25 nodes and 270,336 walkers full; BFS: 2^16 and 2^23 nodes.
#include "apps.h"

__global__ void chase(unsigned* out, const unsigned* next, int hops) {
    unsigned p = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u % 1048573u;
    for (int h = 0; h < hops; ++h) p = next[p];
    out[blockIdx.x * blockDim.x + threadIdx.x] = p;
}

__global__ void bfs_level(int* next, const int* level, const int* rowptr, const int* cols, int nodes, int cur) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nodes || level[v] != cur) return;
    for (int j = rowptr[v]; j < rowptr[v + 1]; ++j) {
        int u = cols[j];
        if (level[u] < 0) atomicMin(&next[u], cur + 1);
    }
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int nodes = small ? 1 << 20 : 1 << 25, walkers = small ? 132 * 128 : 132 * 2048;
    std::vector<unsigned> order(nodes), next(nodes);
    apps::Lcg r(19);
    for (int i = 0; i < nodes; ++i) order[i] = i;
    for (int i = nodes - 1; i > 0; --i) std::swap(order[i], order[r.below(i + 1)]);
    for (int i = 0; i < nodes; ++i) next[order[i]] = order[(i + 1) % nodes];
    unsigned *d_next = apps::upload(next), *out = apps::zeros<unsigned>(walkers);
    validation::measure(single, "graph", "chase_16", walkers, 64.0 * walkers, [&] {
        hipLaunchKernelGGL(chase, dim3(walkers / 128), dim3(128), 0, 0, out, d_next, 16);
    });
    const int bn = small ? 1 << 16 : 1 << 23;
    std::vector<int> rowptr(bn + 1, 0), cols, level(bn);
    for (int v = 0; v < bn; ++v) {
        for (int k = 4 + int(r.below(5)); k > 0; --k) cols.push_back((v + int(r.below(513)) - 256 + bn) % bn);
        rowptr[v + 1] = int(cols.size());
        level[v] = r.below(4) == 0 ? 3 : r.below(2) == 0 ? -1 : int(r.below(3));  // a quarter on the frontier
    }
    int *d_rowptr = apps::upload(rowptr), *d_cols = apps::upload(cols), *d_level = apps::upload(level);
    int* d_bids = apps::upload(std::vector<int>(bn, 1 << 30));
    validation::measure(single, "graph", "bfs_level", bn, 4.0 * (bn + cols.size()), [&] {
        hipLaunchKernelGGL(bfs_level, dim3(bn / 256), dim3(256), 0, 0, d_bids, d_level, d_rowptr, d_cols, bn, 3);
    });
    HIP_CHECK(hipFree(d_next));
    HIP_CHECK(hipFree(out));
    for (int* p : {d_rowptr, d_cols, d_level, d_bids}) HIP_CHECK(hipFree(p));
    return 0;
}
