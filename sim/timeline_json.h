// `--timeline FILE.json`: the host-side timeline (models/host/streams.h) as a Chrome trace-event
// file (the JSON Object Format that Perfetto and chrome://tracing open): one track per stream,
// and one per copy engine and for the GPU, so that a user sees what overlapped.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "../models/host/streams.h"

namespace dcusim {

// `ops` in issue order, `spans` as HostStreams gave them. Times in microseconds, as the format has them.
nlohmann::json timeline_json(const std::vector<HostOp>& ops, const std::vector<HostSpan>& spans);

}  // namespace dcusim
