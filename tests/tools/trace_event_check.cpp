// trace_event_check FILE.json: exit 0 when FILE keeps to the trace-event format
// (tests/trace_event_format.h), else each problem on stderr and exit 1; exit 2 when it is not JSON.
#include <fstream>
#include <iostream>

#include "../trace_event_format.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: trace_event_check FILE.json\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        std::cerr << argv[1] << ": not JSON: " << e.what() << "\n";
        return 2;
    }
    const auto bad = dcusim::test::trace_event_problems(j);
    for (const auto& b : bad) std::cerr << argv[1] << ": " << b << "\n";
    return bad.empty() ? 0 : 1;
}
