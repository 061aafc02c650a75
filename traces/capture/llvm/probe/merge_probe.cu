// Which adjacent accesses does the NVIDIA assembler (ptxas) join into one wide
// instruction below the PTX, where an IR pass cannot see it? Each kernel makes
// one pattern; `validation/run.py device dcucc` disassembles the cubin
// (validation/results/h200-dcucc/merge_probe/) and pass/joins.cpp's
// placement model follows what it shows.
// clang's PTX for every kernel here has only 4-byte accesses.
#define N 16

// A row of a 2-D shared tile, as a tiled matrix multiply reads it: 16-byte
// aligned only if ptxas places the tile at 16 (the PTX says .align 4).
__global__ void sh_row(float* out, int k) {
    __shared__ float s[N][N];
    s[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    float acc = 0;
    for (int j = 0; j < N; ++j) acc += s[threadIdx.y][j] * k;
    out[threadIdx.y * N + threadIdx.x] = acc;
}

// The same row from the second element: 4-byte aligned only.
__global__ void sh_row_plus1(float* out, int k) {
    __shared__ float s[N][N + 1];
    s[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    float acc = 0;
    for (int j = 1; j < 5; ++j) acc += s[threadIdx.y][j] * k;
    out[threadIdx.y * N + threadIdx.x] = acc;
}

// From the third element of a 16-float row: 8-byte aligned.
__global__ void sh_row_plus2(float* out, int k) {
    __shared__ float s[N][N];
    s[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    float acc = 0;
    for (int j = 2; j < 6; ++j) acc += s[threadIdx.y][j] * k;
    out[threadIdx.y * N + threadIdx.x] = acc;
}

// A tile declared after a 4-byte shared scalar: is each shared object placed at 16?
__global__ void sh_second(float* out, int k) {
    __shared__ float flag;
    __shared__ float t[N][N];
    if (threadIdx.x == 0) flag = k;
    t[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    float acc = flag;
    for (int j = 0; j < 4; ++j) acc += t[threadIdx.y][j];
    out[threadIdx.y * N + threadIdx.x] = acc;
}

// A private array stored at constant indices and read at a run-time one: is the
// local frame 16-byte aligned (STL.128) or 8 (STL.64)?
__global__ void lo_const(float* out, const float* in, int zero) {
    float a[8];
    float x = in[threadIdx.x];
    for (int j = 0; j < 8; ++j) a[j] = x * j;
    out[threadIdx.x] = a[(threadIdx.x + zero) % 8];
}

// Two private arrays, the second after one of 5 floats.
__global__ void lo_two(float* out, const float* in, int zero) {
    float a[5], b[8];
    float x = in[threadIdx.x];
    for (int j = 0; j < 5; ++j) a[j] = x + j;
    for (int j = 0; j < 8; ++j) b[j] = x * j;
    out[threadIdx.x] = a[(threadIdx.x + zero) % 5] + b[(threadIdx.x + zero) % 8];
}

// A private array filled by a loop that clang unrolls by 12 (spill's pattern).
__global__ void lo_loop(float* out, const float* in, int zero) {
    float a[96];
    float x = in[threadIdx.x];
    for (int j = 0; j < 96; ++j) a[j] = x * j;
    float acc = 0;
    for (int j = 0; j < 96; ++j) acc += a[(j * 7 + threadIdx.x + zero) % 96];
    out[threadIdx.x] = acc;
}

// Four adjacent floats of global memory through a pointer of unknown alignment.
__global__ void gl_row(float* out, const float* __restrict__ in) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[4 * t] + in[4 * t + 1] + in[4 * t + 2] + in[4 * t + 3];
}
