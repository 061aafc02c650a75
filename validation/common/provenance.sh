# Shared by the H200 microbenchmark scripts: `provenance BUILD COUNTERS`
# prints the date, GPU, driver, clocks, CUDA and ncu versions, the commit
# (validation/RUN_COMMIT, written before a device run) and the two commands.
provenance() {
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
    nvcc --version | tail -1
    ncu --version | tail -1
    echo "commit: $(cat RUN_COMMIT 2>/dev/null)"
    echo "build: $1"
    echo "counters: $2"
}
