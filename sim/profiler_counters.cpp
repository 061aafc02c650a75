#include "profiler_counters.h"

namespace dcusim {

namespace {

double get(const StatMap& m, const char* k) {
    auto it = m.find(k);
    return it == m.end() ? 0.0 : it->second;
}

double pct(double num, double den) { return den > 0 ? 100.0 * num / den : 0.0; }

}  // namespace

const std::vector<ProfilerCounter>& profiler_counters(const std::string& profiler) {
    static const std::vector<ProfilerCounter> none;
    using M = const StatMap&;
    static const std::vector<ProfilerCounter> ncu = {
        {"gpc__cycles_elapsed.max", "cycles", [](M m) { return get(m, "cycles"); }},
        {"smsp__inst_executed.sum", "instructions - waits", [](M m) { return get(m, "instructions") - get(m, "waits"); }},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "lds.load_conflict_cycles",
         [](M m) { return get(m, "lds.load_conflict_cycles"); }},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "lds.store_conflict_cycles",
         [](M m) { return get(m, "lds.store_conflict_cycles"); }},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "lds.load_cycles", [](M m) { return get(m, "lds.load_cycles"); }},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "lds.store_cycles", [](M m) { return get(m, "lds.store_cycles"); }},
        {"l1tex__t_sector_hit_rate.pct", "100 x l1.sector_hits / l1.sectors",
         [](M m) { return pct(get(m, "l1.sector_hits"), get(m, "l1.sectors")); }},
        {"lts__t_sector_hit_rate.pct", "100 x (l2.sector_hits + l2.link.sector_hits) / (l2.sectors + l2.link.sectors)",
         [](M m) {
             return pct(get(m, "l2.sector_hits") + get(m, "l2.link.sector_hits"), get(m, "l2.sectors") + get(m, "l2.link.sectors"));
         }},
        {"lts__t_sectors_srcunit_tex.sum", "l2.sectors", [](M m) { return get(m, "l2.sectors"); }},
        {"lts__t_sectors_srcunit_tex_lookup_hit.sum", "l2.sector_hits", [](M m) { return get(m, "l2.sector_hits"); }},
        {"lts__t_sectors_srcunit_ltcfabric.sum", "l2.link.sectors", [](M m) { return get(m, "l2.link.sectors"); }},
        {"dram__bytes_read.sum", "dram.read_bytes", [](M m) { return get(m, "dram.read_bytes"); }},
        {"dram__bytes_write.sum", "dram.write_bytes", [](M m) { return get(m, "dram.write_bytes"); }},
        {"idc__requests.sum", "const.requests", [](M m) { return get(m, "const.requests"); }},
    };
    static const std::vector<ProfilerCounter> rocprof = {
        {"GRBM_GUI_ACTIVE", "cycles", [](M m) { return get(m, "cycles"); }},
        {"SQ_WAVES", "waves", [](M m) { return get(m, "waves"); }},
        {"SQ_INSTS_LDS", "lds.instructions", [](M m) { return get(m, "lds.instructions"); }},
        {"SQ_LDS_BANK_CONFLICT", "lds.bank_conflict_cycles", [](M m) { return get(m, "lds.bank_conflict_cycles"); }},
        {"TCP_TOTAL_CACHE_ACCESSES", "l1.requests", [](M m) { return get(m, "l1.requests"); }},
        {"TCC_HIT", "l2.hits", [](M m) { return get(m, "l2.hits"); }},
        {"TCC_MISS", "l2.misses", [](M m) { return get(m, "l2.misses"); }},
        {"TCC_EA_RDREQ", "dram.read_requests", [](M m) { return get(m, "dram.read_requests"); }},
        {"TCC_EA_WRREQ", "dram.write_requests", [](M m) { return get(m, "dram.write_requests"); }},
    };
    if (profiler == "ncu") return ncu;
    if (profiler == "rocprof") return rocprof;
    return none;
}

void add_profiler_counters(StatMap& m, const std::string& profiler) {
    for (const auto& c : profiler_counters(profiler)) m[c.name] = c.value(m);
}

}  // namespace dcusim
