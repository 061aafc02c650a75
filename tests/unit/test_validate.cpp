// dcusim validate's arithmetic and inputs, by hand (sim/validate/comparison.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "helpers.h"
#include "sim/csv.h"
#include "sim/validate/comparison.h"

using namespace dcusim::validate;
using dcusim::csv_field;
using dcusim::csv_fields;

TEST_CASE("validate: errors per kind", "[validate]") {
    CHECK(error_of(ErrorKind::Relative, 200, 150) == Approx(25));
    CHECK(error_of(ErrorKind::Relative, 200, 250) == Approx(25));
    CHECK(error_of(ErrorKind::Points, 92.5, 90.0) == Approx(2.5));
    CHECK(error_of(ErrorKind::Exact, 31, 31) == 0);
    CHECK(error_of(ErrorKind::Exact, 31, 30) == 1);
}

TEST_CASE("validate: Pearson r by hand", "[validate]") {
    CHECK(pearson({1, 2, 3}, {2, 4, 6}) == Approx(1));
    CHECK(pearson({1, 2, 3}, {3, 2, 1}) == Approx(-1));
    // dx = -1 0 1, dy = -1 1 0: sxy = 1, sxx = syy = 2: r = 0.5
    CHECK(pearson({1, 2, 3}, {1, 3, 2}) == Approx(0.5));
    CHECK(std::isnan(pearson({1}, {1})));
    CHECK(std::isnan(pearson({1, 1}, {2, 3})));  // no spread
}

TEST_CASE("validate: a summary counts only the kernels compared", "[validate]") {
    MetricGroup g{"cycles", {"gpc__cycles_elapsed.max"}, ErrorKind::Relative, 0, 1e300, ""};
    std::vector<Row> rows = {
        {"a", "cycles", 100, 110, 10, true},
        {"b", "cycles", 200, 170, 15, true},
        {"c", "cycles", 300, 0, 0, false},  // left out
        {"a", "dram_read_bytes", 5, 5, 0, true},
    };
    Summary s = summarize(g, rows);
    CHECK(s.n == 2);
    CHECK(s.mean == Approx(12.5));  // the MAPE
    CHECK(s.max == Approx(15));
    CHECK(s.exact == 0);
    CHECK(s.pearson == Approx(1));  // two points lie on a line
    CHECK(s.pearson_log == Approx(1));
}

TEST_CASE("validate: CSV fields may be quoted", "[validate]") {
    auto f = csv_fields("lds_bank,\"void f<1, float>(float *, int)\",small,\"say \"\"hi\"\"\"");
    REQUIRE(f.size() == 4);
    CHECK(f[1] == "void f<1, float>(float *, int)");
    CHECK(f[3] == "say \"hi\"");
    CHECK(csv_fields("a,,b").size() == 3);
    CHECK(csv_fields("a,").size() == 2);
    CHECK(csv_field("k<1,float>") == "\"k<1,float>\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("plain") == "plain");
    CHECK(csv_fields(csv_field("a,\"b\"") + "," + csv_field("c")) == std::vector<std::string>{"a,\"b\"", "c"});
}

TEST_CASE("validate: bad pairs and measurements name the file and line", "[validate]") {
    const std::string pairs = dcusim::test::write_temp("pairs.csv", "trace,kernel,family,variant,scale\nt.trace,x,f,v,small\n");
    CHECK_THROWS_WITH(read_pairs(pairs), Catch::Contains("pairs.csv:2: column 'kernel': 'x' is not a number"));
    // 1e20 silently paired kernel 0 (issue 22).
    const std::string big = dcusim::test::write_temp("big.csv", "trace,kernel,family,variant,scale\nt.trace,1e20,f,v,small\n");
    CHECK_THROWS_WITH(read_pairs(big), Catch::Contains("big.csv:2: column 'kernel': kernel index 1e20 is not a whole number"));
    const std::string nan = dcusim::test::write_temp(
        "nan.csv", "family,variant,kernel,scale,size,metric,value,unit\nf,v,k,small,1,cycles,nan,cycle\n");
    CHECK_THROWS_WITH(read_measurements(nan), Catch::Contains("nan.csv:2: column 'value': 'nan' is not a number"));
    const std::string cols = dcusim::test::write_temp("cols.csv", "trace,kernel,family\n");
    CHECK_THROWS_WITH(read_pairs(cols), Catch::Contains("cols.csv:1: no column 'variant'"));
    const std::string m = dcusim::test::write_temp(
        "m.csv", "family,variant,kernel,scale,size,metric,value,unit\nf,v,\"k, 1\",small,1,cycles,12,cycle\nf,v,k,small\n");
    CHECK_THROWS_WITH(read_measurements(m), Catch::Contains("m.csv:3: 4 fields, the header has 8"));
    CHECK_THROWS_WITH(metric_groups("none"), Catch::Contains("report.profiler = none"));
}
