// Issue 24: the one command-line layer (sim/cli_options.h) that sweep, plot, validate, trace
// convert and dcusim-tracegen parse with: strict values, Boost's syntax, our one-line errors.
#include <cmath>
#include <catch2/catch.hpp>

#include "sim/cli_options.h"
#include "sim/cli_parse.h"

using namespace dcusim;
namespace po = boost::program_options;

namespace {

// A command of every kind of option, and its words after the command's name.
po::variables_map parse(const std::vector<std::string>& words) {
    po::options_description o;
    o.add_options()("jobs,j", cli::jobs())("waves", cli::count(1024))("bytes", cli::size())("limit", cli::percentage())(
        "out", po::value<std::string>())("quiet,q", po::bool_switch())("file", po::value<std::vector<std::string>>());
    po::positional_options_description pos;
    pos.add("file", -1);
    return cli::parse(words, o, pos);
}

std::string error_of(const std::vector<std::string>& words) {
    try {
        parse(words);
    } catch (const cli::UsageError& e) {
        return e.what();
    }
    return "accepted";
}

uint64_t u(const std::vector<std::string>& words, const char* name) { return parse(words)[name].as<uint64_t>(); }

}  // namespace

TEST_CASE("jobs: -j takes its value attached, after a space or after =", "[cli]") {
    CHECK(u({"-j1"}, "jobs") == 1);
    CHECK(u({"-j", "1"}, "jobs") == 1);
    CHECK(u({"--jobs=3"}, "jobs") == 3);
    CHECK(u({"-qj", "4"}, "jobs") == 4);
    CHECK(u({"--jobs", "1024"}, "jobs") == 1024);
}

TEST_CASE("jobs: -j refuses anything but 1 to 1024 in digits, naming -j as written", "[cli][bad-input]") {
    CHECK(error_of({"-j", "0x"}) == "-j: '0x' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j0"}) == "-j: '0' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j", "1025"}) == "-j: '1025' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j", "99999999999"}) == "-j: '99999999999' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j", " 4"}) == "-j: ' 4' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j", "+4"}) == "-j: '+4' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"-j", "-5"}) == "-j: '-5' is not a number of jobs from 1 to 1024");
    CHECK(error_of({"--jobs", "2x"}) == "--jobs: '2x' is not a number of jobs from 1 to 1024");
}

TEST_CASE("counts are digits within their range", "[cli][bad-input]") {
    CHECK(u({"--waves", "1024"}, "waves") == 1024);
    CHECK(error_of({"--waves", "1025"}) == "--waves: '1025' is not a whole number from 1 to 1024");
    CHECK(error_of({"--waves", "1K"}) == "--waves: '1K' is not a whole number from 1 to 1024");
    CHECK(error_of({"--waves", "0"}) == "--waves: '0' is not a whole number from 1 to 1024");
    CHECK(error_of({"--waves", "99999999999999999999999"}) ==
          "--waves: '99999999999999999999999' is not a whole number from 1 to 1024");
}

TEST_CASE("sizes take K, M and G as the preset keys do", "[cli]") {
    CHECK(u({"--bytes", "32M"}, "bytes") == 32u << 20);
    CHECK(u({"--bytes=32M"}, "bytes") == 32u << 20);
    CHECK(u({"--bytes", "33554432"}, "bytes") == 32u << 20);
    CHECK(u({"--bytes", "64K"}, "bytes") == 65536);
    CHECK(u({"--bytes", "1G"}, "bytes") == 1u << 30);
    CHECK(error_of({"--bytes", "32Q"}) == "--bytes: '32Q' is not a size (N, NK, NM or NG, above 0)");
    CHECK(error_of({"--bytes", "0"}) == "--bytes: '0' is not a size (N, NK, NM or NG, above 0)");
    CHECK(error_of({"--bytes", "17179869184G"}) == "--bytes: '17179869184G' is not a size (N, NK, NM or NG, above 0)");
}

TEST_CASE("percentages are decimal numbers from 0 to 1e9", "[cli][bad-input]") {
    CHECK(parse({"--limit", "2.5"})["limit"].as<double>() == 2.5);
    CHECK(parse({"--limit", "1e3"})["limit"].as<double>() == 1000);
    CHECK(parse({"--limit", "0"})["limit"].as<double>() == 0);
    for (const char* bad : {"0x10", "inf", "nan", " 5", "-1", "1e10", "", "5%"})
        CHECK(error_of({"--limit", bad}) == std::string("--limit takes a percentage, not '") + bad + "'");
}

TEST_CASE("syntax errors name the option", "[cli][bad-input]") {
    CHECK(error_of({"--bogus"}) == "unknown option '--bogus'");
    CHECK(error_of({"-x5"}) == "unknown option '-x5'");
    CHECK(error_of({"--jo", "2"}) == "unknown option '--jo'");  // no guessing of abbreviations
    CHECK(error_of({"a", "-j"}) == "-j needs a value");
    CHECK(error_of({"--jobs"}) == "--jobs needs a value");
    CHECK(error_of({"--out="}) == "--out needs a value after '='");
    CHECK(error_of({"--quiet=1"}) == "--quiet takes no value");
    CHECK(error_of({"-j", "1", "-j", "2"}) == "-j given twice");
    CHECK(error_of({"--bytes", "1M", "--bytes", "2M"}) == "--bytes given twice");
    CHECK(error_of({"--out", "a", "--out", "b"}) == "--out given twice");
    CHECK(error_of({"-q", "-q"}) == "-q given twice");
    // An option without a name: "--=" made the message's lookup throw (fuzz_cli), "--=x" was a file.
    CHECK(error_of({"--="}) == "unknown option '--='");
    CHECK(error_of({"--=x"}) == "unknown option '--=x'");
    CHECK(error_of({"---="}) == "'---' needs a value after '='");
    CHECK(parse({"--", "--=x"})["file"].as<std::vector<std::string>>() == std::vector<std::string>{"--=x"});
    CHECK_THROWS_WITH(parse_run_args({"--=x"}), "unrecognised option '--=x'");
}

TEST_CASE("a placeholder in a word does not hang the error (fuzz_cli: --top %value%)", "[cli][bad-input]") {
    CHECK(error_of({"--%value%"}) == "unknown option '--%value%'");
    CHECK(error_of({"--waves", "%value%"}) == "--waves: '%value%' is not a whole number from 1 to 1024");
    CHECK(cli::placeholder_in({"a", "x%canonical_option%y"}) ==
          "'x%canonical_option%y' holds '%canonical_option%', which dcusim's messages cannot show: rename it");
    CHECK(cli::placeholder_in({"50%", "%1%", "%A%"}).empty());
}

TEST_CASE("words that are no option are positional, -- ends the options", "[cli]") {
    const auto vm = parse({"a", "-j2", "b", "--", "-c"});
    CHECK(vm["file"].as<std::vector<std::string>>() == std::vector<std::string>{"a", "b", "-c"});
    CHECK(vm["jobs"].as<uint64_t>() == 2);
}

TEST_CASE("sweep, validate, plot and trace convert parse through the same layer", "[cli][bad-input]") {
    const SweepArgs s = parse_sweep_args({"--vary=lds.banks=16,32", "-j1", "--out", "s.csv", "t.trace", "u.trace"});
    CHECK(s.jobs == 1);
    CHECK(s.vary.size() == 1);
    CHECK(s.vary[0].values == std::vector<std::string>{"16", "32"});
    CHECK(s.traces == std::vector<std::string>{"t.trace", "u.trace"});
    CHECK(parse_sweep_args({"--vary", "a=1", "--jobs=8", "--out", "s.csv", "t"}).jobs == 8);
    CHECK_THROWS_WITH(parse_sweep_args({"--vary", "a=1", "-j", "0x", "--out", "s.csv", "t"}),
                      "dcusim sweep: -j: '0x' is not a number of jobs from 1 to 1024");
    CHECK_THROWS_WITH(parse_sweep_args({"--bogus"}), "dcusim sweep: unknown option '--bogus'");
    CHECK(parse_validate_args({"d", "-j1"}).jobs == 1);
    CHECK(parse_validate_args({"d"}).jobs == 2);
    CHECK(parse_validate_args({"d", "--max-l1-error", "1.5"}).limits.max_l1_error == 1.5);
    CHECK(parse_validate_args({"d"}).limits.max_cycles_mape == 25);
    CHECK(parse_validate_args({"d"}).limits.max_inexact_conflicts == 0);
    const ValidateArgs sets = parse_validate_args({"d", "--test", "t", "--test-max-cycles-mape", "17", "--test-max-inexact-conflicts", "7"});
    CHECK(sets.test_dir == "t");
    CHECK(sets.test_limits.max_cycles_mape == 17);
    CHECK(sets.test_limits.max_inexact_conflicts == 7);
    CHECK(std::isinf(sets.test_limits.max_dram_error));  // the test set: only the limits given
    CHECK(sets.limits.max_cycles_mape == 25);            // the calibration set's stay
    CHECK_THROWS_WITH(parse_validate_args({"d", "--test-max-l2-error", "3"}), "dcusim validate: --test-max-l2-error goes with --test");
    CHECK_THROWS_WITH(parse_validate_args({"d", "-j", "0x"}), "dcusim validate: -j: '0x' is not a number of jobs from 1 to 1024");
    CHECK_THROWS_WITH(parse_validate_args({"d", "--bogus"}), "dcusim validate: unknown option '--bogus'");
    CHECK_THROWS_WITH(parse_validate_args({"d", "e"}), "dcusim validate: one results folder only ('e')");
    CHECK(parse_plot_args({"--x", "a", "--y=b", "in.csv"}).out == "plot.png");
    CHECK_THROWS_WITH(parse_plot_args({"in.csv", "--x", "a", "--y", "b", "--bogus"}), "dcusim plot: unknown option '--bogus'");
    CHECK_THROWS_WITH(parse_plot_args({"a.csv", "b.csv"}), "dcusim plot: one CSV only ('b.csv')");
    CHECK(parse_convert_args({"--to=text", "a", "b"}).to == "text");
    CHECK_THROWS_WITH(parse_convert_args({"a", "b", "--bogus"}), "dcusim trace convert: unknown option '--bogus'");
    CHECK_THROWS_WITH(parse_convert_args({"a", "b", "c"}), "dcusim trace convert: unexpected argument 'c'");
    CHECK(parse_trace_file_args("stats", {"t.trace"}).file == "t.trace");
    CHECK_THROWS_WITH(parse_trace_file_args("stats", {"--bogus"}), "dcusim trace stats: unknown option '--bogus'");
    CHECK_THROWS_WITH(parse_trace_file_args("dump", {"a", "b"}), "dcusim trace dump: one trace only ('b')");
    CHECK_THROWS_WITH(parse_trace_file_args("dump", {}), "dcusim trace dump: needs FILE (dcusim trace --help)");
}

TEST_CASE("run's --top is a count as strict as the others, in run's own what()", "[cli][bad-input]") {
    CHECK(parse_run_args({"--top", "8"})["top"].as<unsigned>() == 8);
    CHECK(parse_run_args({})["top"].as<unsigned>() == 10);
    // Boost's own unsigned took -1 for 4294967295 and 0 for none.
    CHECK_THROWS_WITH(parse_run_args({"--top", "-1"}), "--top: '-1' is not a whole number from 1 to 1000000");
    CHECK_THROWS_WITH(parse_run_args({"--top=0"}), "--top: '0' is not a whole number from 1 to 1000000");
    CHECK_THROWS_WITH(parse_run_args({"--top", "0x"}), "--top: '0x' is not a whole number from 1 to 1000000");
}

TEST_CASE("sweep's --slurm options: values, defaults, and what goes with what", "[cli][bad-input]") {
    const std::vector<std::string> sweep = {"--vary", "a=1", "--out", "s.csv", "t"};
    auto with = [&](std::vector<std::string> w) {
        w.insert(w.end(), sweep.begin(), sweep.end());
        return w;
    };
    const SweepArgs s = parse_sweep_args(with({"--slurm", "--per-task=3", "--array-max", "8", "--partition", "cpu", "--time", "1:00:00"}));
    CHECK(s.slurm);
    CHECK(s.per_task == 3);
    CHECK(s.array_max == 8);
    CHECK(s.partition == "cpu");
    CHECK(s.time == "1:00:00");
    const SweepArgs d = parse_sweep_args(with({"--slurm"}));
    CHECK(d.per_task == 1);
    CHECK(d.array_max == 0);
    CHECK(d.task < 0);
    CHECK_THROWS_WITH(parse_sweep_args(with({"--per-task", "3"})),
                      "dcusim sweep: --partition, --account, --time, --array-max and --per-task go with --slurm");
    CHECK_THROWS_WITH(parse_sweep_args(with({"--slurm", "--per-task", "0"})),
                      "dcusim sweep: --per-task: '0' is not a whole number from 1 to 100000");
    CHECK_THROWS_WITH(parse_sweep_args(with({"--slurm", "--collect"})), "dcusim sweep: --slurm or --collect, not both");
    // Each value goes after #SBATCH in the job script: a line break there would be a command.
    CHECK_THROWS_WITH(parse_sweep_args(with({"--slurm", "--partition", "cpu\nrm -rf x"})),
                      "dcusim sweep: --partition: not a Slurm name (it holds a space, %, \\ or a control character)");
    CHECK_THROWS_WITH(parse_sweep_args(with({"--slurm", "--account", "a b"})),
                      "dcusim sweep: --account: not a Slurm name (it holds a space, %, \\ or a control character)");
    // The job script's own options: --task counts from 1, the index is Slurm's (from 0).
    const SweepArgs t = parse_sweep_args(with({"--task-list", "p/slurm-1.tasks", "--task", "4"}));
    CHECK(t.task == 3);
    CHECK(t.task_list == "p/slurm-1.tasks");
    CHECK_THROWS_WITH(parse_sweep_args(with({"--task", "4"})), "dcusim sweep: --task-list and --task go together");
}

TEST_CASE("sweep --status takes the CSV and nothing else", "[cli][bad-input]") {
    CHECK(parse_sweep_args({"--status", "s.csv"}).status == "s.csv");
    CHECK(parse_sweep_args({"--status=s.csv"}).status == "s.csv");
    CHECK_THROWS_WITH(parse_sweep_args({"--status", "s.csv", "--vary", "a=1"}), "dcusim sweep: --status FILE.csv takes nothing else");
}
