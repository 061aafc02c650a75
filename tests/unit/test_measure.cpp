// dcusim measure's readers of profiler output (sim/measure/profiled.h), on
// small hand-written reports in each profiler's format.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "../sim/measure/profiled.h"

using namespace dcusim::measure;

namespace {

std::string write_tmp(const std::string& name, const std::string& text) {
    const std::string path = std::string(P_tmpdir) + "/dcusim_test_measure_" + name;
    std::ofstream(path) << text;
    return path;
}

const char* kNcuHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\","
    "\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string ncu_row(int id, const std::string& kernel, const std::string& metric, const std::string& unit, const std::string& value) {
    return "\"" + std::to_string(id) + "\",\"9\",\"p\",\"h\",\"" + kernel + "\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\","
           "\"Command line profiler metrics\",\"" + metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

}  // namespace

TEST_CASE("kernel names of profilers and capture tools compare without return type, spaces and parameters") {
    CHECK(kernel_base("void lds_read<1, float>(float *, int, int)") == "lds_read<1,float>");
    CHECK(kernel_base("lds_read<1,float>(float*,int,int)") == "lds_read<1,float>");
    CHECK(kernel_base("saxpy(float, const float *, float *, int)") == "saxpy");
    CHECK(kernel_base("saxpy(float,floatconst*,float*,int)") == "saxpy");
    CHECK(kernel_base("void ns::k<std::pair<int, int> >(int)") == "ns::k<std::pair<int,int>>");
    CHECK(kernel_base("_Z5saxpyfPKfPfi") == "_Z5saxpyfPKfPfi");  // a mangled name stays as it is
}

TEST_CASE("ncu's CSV gives one launch per ID, in ID order, its other lines skipped") {
    const std::string text = std::string("==PROF== Connected to process 9\nprogram output\n") + kNcuHeader +
                             ncu_row(1, "g(int)", "dram__bytes_read.sum", "byte", "1,234,567") +
                             ncu_row(0, "void f<1, int>(int *)", "gpc__cycles_elapsed.max", "cycle", "5,862") + kNcuHeader +
                             ncu_row(0, "void f<1, int>(int *)", "l1tex__t_sector_hit_rate.pct", "%", "33.33") +
                             "==PROF== Disconnected from process 9\n";
    const auto launches = read_ncu_csv(write_tmp("ok.csv", text));
    REQUIRE(launches.size() == 2);
    CHECK(launches[0].kernel == "void f<1, int>(int *)");
    CHECK(launches[0].metrics.at("gpc__cycles_elapsed.max").value == "5862");
    CHECK(launches[0].metrics.at("gpc__cycles_elapsed.max").unit == "cycle");
    CHECK(launches[0].metrics.at("l1tex__t_sector_hit_rate.pct").value == "33.33");
    CHECK(launches[1].kernel == "g(int)");
    CHECK(launches[1].metrics.at("dram__bytes_read.sum").value == "1234567");
}

TEST_CASE("an ncu report that is no report, or misses a launch, is refused with its file and line") {
    const std::string none = write_tmp("none.csv", "==PROF== Connected\nno kernel ran\n");
    CHECK_THROWS_WITH(read_ncu_csv(none), none + ": no CSV report of ncu (no line starts with '\"')");
    const std::string gap = write_tmp("gap.csv", std::string(kNcuHeader) + ncu_row(0, "f()", "m", "", "1") + ncu_row(2, "f()", "m", "", "1"));
    CHECK_THROWS_WITH(read_ncu_csv(gap), gap + ": launch 1 is missing (IDs jump to 2)");
    const std::string two = write_tmp("two.csv", std::string(kNcuHeader) + ncu_row(0, "f()", "m", "", "1") + ncu_row(0, "g()", "n", "", "1"));
    CHECK_THROWS_WITH(read_ncu_csv(two), two + ":3: launch 0 is 'g()', earlier rows say 'f()'");
    const std::string cut = write_tmp("cut.csv", std::string(kNcuHeader) + "\"0\",\"9\",\"p\"\n");
    CHECK_THROWS_WITH(read_ncu_csv(cut), cut + ":2: 3 fields, the header has 15");
    const std::string id = write_tmp("id.csv", std::string(kNcuHeader) + ncu_row(0, "f()", "m", "", "1").replace(1, 1, "x"));
    CHECK_THROWS_WITH(read_ncu_csv(id), id + ":2: launch ID 'x' is not a whole number");
    const std::string cols = write_tmp("cols.csv", "\"ID\",\"Kernel Name\"\n");
    CHECK_THROWS_WITH(read_ncu_csv(cols), cols + ":1: no column 'Metric Name'");
}

TEST_CASE("rocprof's CSV gives one launch per row and a counter summed over instances is read under its own name") {
    const std::string path = write_tmp("rocprof.csv",
                                       "Index,KernelName,gpu-id,GRBM_GUI_ACTIVE,TCC_HIT_sum\n"
                                       "0,\"saxpy(float, float const*, float*, int) [clone .kd]\",1,5000,120\n"
                                       "1,\"gather(float const*, float*, int) [clone .kd]\",1,7000,30\n");
    const auto launches = read_rocprof_csv(path);
    REQUIRE(launches.size() == 2);
    CHECK(kernel_base(launches[0].kernel) == "saxpy");
    CHECK(launches[0].metrics.at("GRBM_GUI_ACTIVE").value == "5000");
    CHECK(launches[1].metrics.at("TCC_HIT").value == "30");
    CHECK(launches[1].metrics.count("TCC_HIT_sum") == 0);
    const std::string bad = write_tmp("rocprof_bad.csv", "Index,Kernel\n");
    CHECK_THROWS_WITH(read_rocprof_csv(bad), bad + ":1: no column 'KernelName'");
}

TEST_CASE("rocprof's input asks each hardware block in passes of at most four counters") {
    CHECK(rocprof_input({"GRBM_GUI_ACTIVE", "SQ_WAVES", "SQ_INSTS_LDS", "SQ_LDS_BANK_CONFLICT", "TCP_TOTAL_CACHE_ACCESSES", "TCC_HIT",
                         "TCC_MISS", "TCC_EA_RDREQ", "TCC_EA_WRREQ", "SQ_INSTS_SMEM"}) ==
          "pmc: GRBM_GUI_ACTIVE\n"
          "pmc: SQ_WAVES SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT SQ_INSTS_SMEM\n"
          "pmc: TCP_TOTAL_CACHE_ACCESSES_sum\n"
          "pmc: TCC_HIT_sum TCC_MISS_sum TCC_EA_RDREQ_sum TCC_EA_WRREQ_sum\n");
}
