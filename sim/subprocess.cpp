#include "subprocess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>

namespace dcusim {

std::string self_exe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    return std::string(buf, size_t(n));
}

pid_t spawn(const std::string& exe, const std::vector<std::string>& argv, const std::string& err_path) {
    std::fflush(nullptr);  // else the child's freopen writes what the parent's stdout still buffers, twice
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen(err_path.c_str(), "w", stderr)) _exit(127);
        std::vector<std::string> args = argv;
        std::vector<char*> cargv;
        for (auto& s : args) cargv.push_back(s.data());
        cargv.push_back(nullptr);
        execv(exe.c_str(), cargv.data());
        _exit(127);
    }
    return pid;
}

void run_parallel(size_t n, unsigned jobs, const std::function<pid_t(size_t)>& start,
                  const std::function<bool(size_t, bool)>& done) {
    std::map<pid_t, size_t> running;
    size_t next = 0;
    bool go_on = true;
    while ((go_on && next < n) || !running.empty()) {
        while (go_on && next < n && running.size() < jobs) {
            const pid_t pid = start(next);
            if (pid < 0) throw std::runtime_error("cannot start a simulation");
            running[pid] = next++;
        }
        if (running.empty()) break;
        int status = 0;
        const pid_t pid = wait(&status);
        if (pid < 0) break;
        auto it = running.find(pid);
        if (it == running.end()) continue;
        const size_t i = it->second;
        running.erase(it);
        go_on = done(i, WIFEXITED(status) && WEXITSTATUS(status) == 0) && go_on;
    }
}

int run_capture(const std::vector<std::string>& argv, std::string& output) {
    output.clear();
    int fds[2];
    if (argv.empty() || pipe(fds) != 0) return 127;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (!freopen("/dev/null", "r", stdin) || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0) _exit(127);
        std::vector<std::string> args = argv;
        std::vector<char*> cargv;
        for (auto& a : args) cargv.push_back(a.data());
        cargv.push_back(nullptr);
        execvp(cargv[0], cargv.data());
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return 127;
    }
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        output.append(buf, size_t(n));
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (size_t a = 0; a <= dirs.size();) {
        size_t b = dirs.find(':', a);
        if (b == std::string::npos) b = dirs.size();
        const std::string dir = b > a ? dirs.substr(a, b - a) : ".";
        if (access((dir + "/" + name).c_str(), X_OK) == 0) return true;
        a = b + 1;
    }
    return false;
}

std::string first_line(const std::string& path) {
    std::ifstream e(path);
    std::string line;
    std::getline(e, line);
    return line.empty() ? "no message" : line;
}

}  // namespace dcusim

namespace dcusim {

bool run_gnuplot(const std::string& script, bool& missing) {
    missing = false;
    std::fflush(nullptr);  // else the child's freopen writes what the parent's stdout still buffers, twice
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
        execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    if (pid < 0) return false;
    int status = 0;
    waitpid(pid, &status, 0);
    missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace dcusim
