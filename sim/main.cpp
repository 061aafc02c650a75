#include <systemc>

#include <cstdlib>

#include "cli.h"
#include "host_memory.h"

int sc_main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return dcusim::cli_main(args);
}

// Our own entry point: SystemC prints its banner before sc_main unless this
// variable is set first.
int main(int argc, char** argv) {
    dcusim::back_heap_with_huge_pages();
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
