#include "subprocess.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace dcusim {

std::string self_exe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    return std::string(buf, size_t(n));
}

pid_t spawn(const std::string& exe, const std::vector<std::string>& argv, const std::string& err_path) {
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

std::string first_line(const std::string& path) {
    std::ifstream e(path);
    std::string line;
    std::getline(e, line);
    return line.empty() ? "no message" : line;
}

}  // namespace dcusim

#include <sys/wait.h>

namespace dcusim {

bool run_gnuplot(const std::string& script, bool& missing) {
    missing = false;
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
