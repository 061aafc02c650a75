// Child dcusim runs: SystemC allows one simulation per process, so commands
// that simulate many times (sweep, validate) run `dcusim run` in children.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace dcusim {

// This program's path (/proc/self/exe); empty if it cannot be found.
std::string self_exe();

// Starts `exe` with `argv` (argv[0] included), stdout to /dev/null and stderr
// to `err_path`. Returns the child's pid, or -1.
pid_t spawn(const std::string& exe, const std::vector<std::string>& argv, const std::string& err_path);

// Runs `n` jobs, at most `jobs` at a time. start(i) starts job i (spawn) and
// returns its pid, or -1 (then std::runtime_error "cannot start a simulation").
// done(i, ok) is called as job i ends, ok when it exited 0; when it returns
// false no further job starts (those running are still waited for).
void run_parallel(size_t n, unsigned jobs, const std::function<pid_t(size_t)>& start,
                  const std::function<bool(size_t, bool)>& done);

// Runs `argv` (argv[0] looked up on the PATH), stdin from /dev/null, and waits; stdout and stderr
// together in `output`. Returns its exit status: 127 when it could not be started, 128+N when
// signal N ended it.
int run_capture(const std::vector<std::string>& argv, std::string& output);

// Whether `name` is an executable file in a folder of the PATH.
bool on_path(const std::string& name);

// The first line of a file (a child's error message), or "no message".
std::string first_line(const std::string& path);

}  // namespace dcusim

namespace dcusim {

// Runs gnuplot on a script; false when it fails or is not installed
// (`missing` then says so).
bool run_gnuplot(const std::string& script, bool& missing);

}  // namespace dcusim
