// Catch2's own main does not link with SystemC (it needs sc_main), so the
// tests provide sc_main and run the Catch session from it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }

int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
