// The sampler's parameters and their preset keys (sample.*): not the GPU, how much of it is timed.
// Each field is declared beside its key (models/common/params.h): a new key is one edit here. Each
// value is within its range once loaded; none depends on another key.
#pragma once

#include "../common/params.h"

namespace dcusim {

struct SampleParams {
    bool on = false;                 // sample.mode = auto
    uint64_t min_workgroups = 1000;  // sample.min_workgroups: smaller grids run in full
    double warmup_rounds = 1;        // sample.warmup_rounds: occupancy rounds retired before measuring (a window at least)
    double window_rounds = 1;        // sample.window_rounds: one window, in occupancy rounds of retirements
    uint32_t windows = 3;            // sample.steady_windows: consecutive windows that must agree
    double tolerance = 0.05;         // sample.tolerance: the mean window's 95 % confidence half-width, relative
    bool warm_l2 = true;             // sample.warm = l2: skipped workgroups warm the L2, untimed
};

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<SampleParams>& sample_param_table() {
    using P = SampleParams;
    static const ParamTable<P> table{
        {
            param::choice<P>("sample.mode",
                             "off: every workgroup is timed; auto: a kernel of at least sample.min_workgroups has its workgroups timed "
                             "until its rate is steady, the rest of their classes projected (outputs say so)",
                             {{"off", false}, {"auto", true}}, &P::on),
            param::count<P>("sample.min_workgroups", "workgroups", "with sample.mode auto: smaller launches run in full", {1, 1e12},
                            &P::min_workgroups),
            param::real<P>("sample.warmup_rounds", "rounds",
                           "occupancy rounds (workgroups the GPU holds at once) retired before the rate is measured (at least a window)", {1, 1000},
                           &P::warmup_rounds),
            param::real<P>("sample.window_rounds", "rounds",
                           "one measurement window, in occupancy rounds of retirements (a round: retirements come in waves of that "
                           "period)",
                           {0.01, 1000}, &P::window_rounds),
            param::count<P>("sample.steady_windows", "windows", "fewest consecutive windows a rate is taken over (up to 16 when more are needed for sample.tolerance)",
                            {2, 8}, &P::windows),
            param::real<P>("sample.tolerance", "fraction",
                           "steady: the mean window's 95 % confidence interval (Student's t, over the windows or their pairs) "
                           "within this fraction of it",
                           {0.0001, 1}, &P::tolerance),
            param::choice<P>("sample.warm",
                             "off: skipped workgroups touch no cache, and a rate is taken only once the L2 has stopped filling; "
                             "l2: each skipped workgroup leaves its lines and dirty data in the L2, untimed, and skipping stops to "
                             "measure again when the L2 fills or its dirty data reaches its limit",
                             {{"off", false}, {"l2", true}}, &P::warm_l2),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
