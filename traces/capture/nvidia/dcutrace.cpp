// dcutrace: runs an unmodified CUDA or HIP-on-NVIDIA program and writes one
// binary dcusim trace of its kernel launches (docs/CAPTURE.md).
//   dcutrace [-o OUT] [--kernel REGEX] [--max-records N] [--times CSV] [--no-host] [--host-log FILE] [--pc-counts CSV] -- PROGRAM ARGS...
// The capture library (libdcutrace.so) and the device patches
// (dcutrace_patch.fatbin) sit next to this program.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

namespace {

const char* kUsage =
    "usage: dcutrace [-o OUT] [--kernel REGEX] [--max-records N] [--times CSV] [--device-mb N] [--no-host] [--host-log FILE]\n"
    "                [--pc-counts CSV] -- PROGRAM [ARGS...]\n"
    "  -o OUT           binary trace to write (default dcutrace.trace)\n"
    "  --kernel REGEX   trace only launches whose kernel name matches (default: all)\n"
    "  --max-records N  fail rather than record more than N warp instructions in one launch (default: no limit)\n"
    "  --times CSV      per traced launch: records, ms to the kernel's end, to all records on the host, to the trace written\n"
    "  --device-mb N    GPU memory (and as much pinned host memory) for staging records (default 1024); a launch's records beyond it go\n"
    "                   through host memory, slower but never dropped\n"
    "  --no-host        kernels only: leave out the host statements (copies, syncs, launch streams, host time, mapped ranges)\n"
    "  --host-log FILE  one line per host call seen (allocations and their flags, copies, streams, syncs, events)\n"
    "  --pc-counts CSV  how often each SASS instruction ran, per kernel launch (FUNCTION,LAUNCH,OFFSET,EXECUTED: from\n"
    "                   ncu's source counters, validation/ncu_pc_counts.py): loops with nothing captured go round as\n"
    "                   often as it says instead of once\n";

int usage_error(const std::string& what) {
    std::fprintf(stderr, "dcutrace: %s\n%s", what.c_str(), kUsage);
    return 2;
}

std::string self_dir() {
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) return ".";
    std::string p(buf.data(), size_t(n));
    return p.substr(0, p.rfind('/'));
}

bool readable(const std::string& p) { return access(p.c_str(), R_OK) == 0; }

}  // namespace

int main(int argc, char** argv) {
    std::string out = "dcutrace.trace", kernel = ".", max_records = "0", times, device_mb = "1024", host_log, pc_counts;
    bool host = true;
    int i = 1;
    for (; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](std::string& dst) -> bool {
            if (i + 1 >= argc) return false;
            dst = argv[++i];
            return true;
        };
        if (a == "--") {
            ++i;
            break;
        } else if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "-o") {
            if (!value(out)) return usage_error("-o needs a file");
        } else if (a == "--kernel") {
            if (!value(kernel)) return usage_error("--kernel needs a regular expression");
            try {
                std::regex check(kernel);
            } catch (const std::regex_error&) {
                return usage_error("--kernel: not a regular expression: " + kernel);
            }
        } else if (a == "--max-records") {
            if (!value(max_records) || max_records.find_first_not_of("0123456789") != std::string::npos ||
                max_records.empty())
                return usage_error("--max-records needs a whole number");
        } else if (a == "--device-mb") {
            if (!value(device_mb) || device_mb.empty() || device_mb.find_first_not_of("0123456789") != std::string::npos)
                return usage_error("--device-mb needs a whole number");
        } else if (a == "--times") {
            if (!value(times)) return usage_error("--times needs a file");
        } else if (a == "--no-host") {
            host = false;
        } else if (a == "--host-log") {
            if (!value(host_log)) return usage_error("--host-log needs a file");
        } else if (a == "--pc-counts") {
            if (!value(pc_counts) || !readable(pc_counts)) return usage_error("--pc-counts needs a readable file");
        } else {
            return usage_error("unknown option " + a + " (the program comes after --)");
        }
    }
    if (i >= argc) return usage_error("no program to run");

    const std::string dir = self_dir();
    const std::string lib = dir + "/libdcutrace.so", patch = dir + "/dcutrace_patch.fatbin";
    if (!readable(lib) || !readable(patch)) {
        std::fprintf(stderr, "dcutrace: %s or %s is missing (build the dcutrace target)\n", lib.c_str(), patch.c_str());
        return 2;
    }
    std::remove(out.c_str());  // an old trace must not pass for this run's
    std::string preload = lib;
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("DCUTRACE_OUT", out.c_str(), 1);
    setenv("DCUTRACE_PATCH", patch.c_str(), 1);
    setenv("DCUTRACE_KERNEL", kernel.c_str(), 1);
    setenv("DCUTRACE_MAX_RECORDS", max_records.c_str(), 1);
    setenv("DCUTRACE_DEVICE_MB", device_mb.c_str(), 1);
    if (!times.empty()) setenv("DCUTRACE_TIMES", times.c_str(), 1);
    setenv("DCUTRACE_HOST", host ? "1" : "0", 1);
    if (!host_log.empty()) setenv("DCUTRACE_HOST_LOG", host_log.c_str(), 1);
    if (!pc_counts.empty()) setenv("DCUTRACE_PC_COUNTS", pc_counts.c_str(), 1);
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // every module is patched when it loads

    pid_t pid = fork();
    if (pid < 0) {
        std::perror("dcutrace: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[i], argv + i);
        std::fprintf(stderr, "dcutrace: cannot run %s: %s\n", argv[i], std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        std::fprintf(stderr, "dcutrace: %s died of signal %d; no trace\n", argv[i], WTERMSIG(status));
        std::remove((out + ".tmp").c_str());
        return 3;
    }
    const int rc = WEXITSTATUS(status);
    if (rc != 0) {
        std::fprintf(stderr, "dcutrace: %s exited with %d; %s\n", argv[i], rc,
                     readable(out) ? "its trace is kept" : "no trace");
        return rc;
    }
    if (!readable(out)) {
        std::fprintf(stderr, "dcutrace: %s ran but wrote no trace (did it launch any kernel?)\n", argv[i]);
        return 3;
    }
    return 0;
}
