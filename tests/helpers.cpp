#include "helpers.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "traces/format/binary_writer.h"
#include "traces/format/source.h"
#include "traces/format/text_reader.h"

namespace dcusim::test {

std::vector<trace::Record> read_all(const std::string& path) {
    trace::TraceStream s(path);
    std::vector<trace::Record> out;
    trace::Record r;
    while (s.next(r)) out.push_back(r);
    return out;
}

std::vector<trace::Record> parse_text(const std::string& text) {
    trace::TraceStream s(std::make_unique<trace::TextReader>(std::make_unique<std::istringstream>(text), "t.trace"));
    std::vector<trace::Record> out;
    trace::Record r;
    while (s.next(r)) out.push_back(r);
    return out;
}

std::string text_error_of(const std::string& text) {
    try {
        parse_text(text);
    } catch (const trace::TraceError& e) {
        return e.what();
    }
    return "no error";
}

std::string write_temp(const std::string& name, const std::string& text) {
    static int n = 0;
    std::string path = "/tmp/dcusim_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + "_" + name;
    std::ofstream f(path, std::ios::binary);
    f << text;
    return path;
}

RunResult run_text(const std::string& trace_text, std::initializer_list<std::pair<const char*, const char*>> overrides) {
    Config cfg;
    for (const auto& [k, v] : overrides) cfg.set(k, v, "test");
    RunOptions ro;
    ro.progress = false;
    return simulate(cfg, {write_temp("t.trace", trace_text)}, ro);
}

std::string one_wave_trace(unsigned wave_size, unsigned threads, const std::string& body) {
    std::ostringstream o;
    o << "dcusim-trace 1\nwave_size " << wave_size << "\nkernel k grid 1 1 1 block " << threads << " 1 1\nwave 0 0\n"
      << body << "\nend\n";
    return o.str();
}

trace::WaveTrace wave_of(const std::vector<std::string>& lines, unsigned wave_size, unsigned threads) {
    std::string text = one_wave_trace(wave_size, threads, [&] {
        std::string b;
        for (const auto& l : lines) b += l + "\n";
        return b;
    }());
    trace::TraceStream s(std::make_unique<trace::TextReader>(std::make_unique<std::istringstream>(text), "wave_of"));
    trace::WaveTrace w;
    trace::Record r;
    while (s.next(r))
        if (r.kind == trace::RecKind::Mem || r.kind == trace::RecKind::Compute || r.kind == trace::RecKind::Barrier ||
            r.kind == trace::RecKind::Wait)
            w.append(r);
    return w;
}

Config preset(const std::string& name, std::initializer_list<std::pair<const char*, const char*>> overrides) {
    Config cfg;
    cfg.load_file(std::string(DCUSIM_SOURCE_DIR) + "/configs/" + name + ".ini");
    for (const auto& [k, v] : overrides) cfg.set(k, v, "test");
    return cfg;
}

RunResult run_files(const Config& cfg, const std::vector<std::string>& traces) {
    RunOptions ro;
    ro.progress = false;
    return simulate(cfg, traces, ro);
}

std::string write_generated(const std::string& name, unsigned wave_size, const std::function<void(trace::RecordSink&)>& body) {
    std::string path = write_temp(name, "");
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    trace::BinaryWriter w(f);
    trace::Record r;
    r.kind = trace::RecKind::WaveSize;
    r.wave_size = wave_size;
    w.write(r);
    body(w);
    w.finish();
    return path;
}

double stat(const RunResult& r, const std::string& key, size_t kernel) {
    if (kernel >= r.kernels.size()) throw std::runtime_error("no kernel " + std::to_string(kernel));
    auto it = r.kernels[kernel].stats.find(key);
    if (it == r.kernels[kernel].stats.end()) throw std::runtime_error("no stat " + key);
    return it->second;
}

}  // namespace dcusim::test
