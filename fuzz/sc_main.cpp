// libsystemc.so needs an sc_main; libFuzzer supplies main() and the harnesses
// never start a simulation, so this one is never called.
extern "C" int sc_main(int, char**) { return 1; }
