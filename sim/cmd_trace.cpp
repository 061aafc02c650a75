// dcusim trace convert | dump | stats
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "../traces/format/binary_reader.h"
#include "../traces/format/binary_writer.h"
#include "../traces/format/sink.h"
#include "../traces/format/source.h"
#include "../traces/tools/trace_stats.h"
#include "cli.h"
#include "cli_parse.h"

namespace dcusim {

using namespace trace;

static bool is_binary(const RecordSource& s) { return dynamic_cast<const BinaryReader*>(&s) != nullptr; }

static void copy_records(TraceStream& in, RecordSink& out) {
    Record r;
    while (in.next(r)) out.write(r);
    out.finish();
}

// Like copy_records, but `wave_size` and each kernel's `end` are written only once what follows
// has read cleanly (or the file has ended cleanly): a dump that a bad record cuts short never ends
// after a whole kernel or as an empty trace, so what stdout got cannot pass for the whole trace.
static void dump_records(TraceStream& in, RecordSink& out) {
    Record r, end;
    bool held = false;
    while (in.next(r)) {
        if (held) out.write(end);
        held = r.kind == RecKind::End || r.kind == RecKind::WaveSize;
        if (held) end = r;
        else out.write(r);
    }
    if (held) out.write(end);
    out.finish();
}

static int convert(const std::vector<std::string>& a) {
    ConvertArgs ca;
    try {
        ca = parse_convert_args(a);
    } catch (const ConfigError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    if (ca.help) {
        std::cout << "usage: dcusim trace convert IN OUT [--to text|binary]\n\n" << convert_options();
        return 0;
    }
    const std::string &in_path = ca.in, &out_path = ca.out;
    std::string to = ca.to;
    auto src = open_source(in_path);
    if (to.empty()) to = is_binary(*src) ? "text" : "binary";  // by default, the other format
    TraceStream in(std::move(src));
    // Written under a temporary name: a failed conversion leaves no OUT behind.
    std::string tmp = out_path + ".tmp";
    try {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) { std::cerr << "dcusim trace convert: " << out_path << ": cannot write\n"; return 2; }
        std::unique_ptr<RecordSink> sink;
        if (to == "text") sink = std::make_unique<TextWriter>(f);
        else sink = std::make_unique<BinaryWriter>(f);
        copy_records(in, *sink);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
        std::remove(tmp.c_str());
        std::cerr << "dcusim trace convert: " << out_path << ": cannot write\n";
        return 2;
    }
    return 0;
}

int cmd_trace(const std::vector<std::string>& a) {
    const char* usage =
        "usage: dcusim trace convert IN OUT [--to text|binary]   (default: the other format)\n"
        "       dcusim trace dump FILE                           (text to stdout)\n"
        "       dcusim trace stats FILE\n";
    if (a.empty() || a[0] == "--help" || a[0] == "-h") {
        (a.empty() ? std::cerr : std::cout) << usage;
        return a.empty() ? 2 : 0;
    }
    try {
        std::vector<std::string> rest(a.begin() + 1, a.end());
        if (a[0] == "convert") return convert(rest);
        if (a[0] != "dump" && a[0] != "stats") {
            std::cerr << "dcusim trace: unknown subcommand '" << a[0] << "' (convert, dump, stats)\n";
            return 2;
        }
        TraceFileArgs t;
        try {
            t = parse_trace_file_args(a[0], rest);
        } catch (const ConfigError& e) {
            std::cerr << e.what() << '\n';
            return 2;
        }
        if (t.help) {
            std::cout << usage;
            return 0;
        }
        if (a[0] == "dump") {
            // Streams: on a bad record the exit code is 2, stderr says where, and the text ends
            // inside a kernel.
            TraceStream in(t.file);
            TextWriter w(std::cout);
            dump_records(in, w);
            return 0;
        }
        std::cout << format_summary(summarize_trace(t.file));
        return 0;
    } catch (const TraceError& e) {
        std::cout.flush();
        std::cerr << "dcusim trace: " << e.what() << '\n';
        return 2;
    }
}

}  // namespace dcusim
