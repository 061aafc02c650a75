// Host statements of the trace grammar (copy, sync, host, map, a kernel's stream): what they read
// as, and every rule TraceStream applies to them, with the text reader's FILE:LINE errors; the
// binary reader's checks of their flags are in test_binary_format.cpp.
#include <catch2/catch.hpp>
#include <sstream>

#include "helpers.h"
#include "traces/format/source.h"
#include "traces/format/text_reader.h"

using namespace dcusim::trace;

namespace {
std::vector<Record> parse(const std::string& text) { return dcusim::test::parse_text(text); }
std::string error_of(const std::string& text) { return dcusim::test::text_error_of(text); }
const std::string head = "dcusim-trace 1\nwave_size 64\n";
}  // namespace

TEST_CASE("host statements read as copies, syncs, host time and mapped ranges", "[text]") {
    const auto r = parse(head + "copy h2d 4096 pageable\ncopy d2h 0x10 wc stream 7 async\ncopy d2d 8 device async stream 2\n"
                                "sync\nsync stream 9\nhost 1500\nmap 0x1000 0x1000\n"
                                "kernel k grid 1 1 1 block 64 1 1 stream 4\nend\n");
    REQUIRE(r.size() == 10);
    CHECK(r[1].kind == RecKind::Copy);
    CHECK(r[1].host.dir == CopyDir::H2D);
    CHECK(r[1].host.mem == HostMemKind::Pageable);
    CHECK(r[1].host.bytes == 4096);
    CHECK(!r[1].host.async);
    CHECK(!r[1].host.has_stream);
    CHECK(r[2].host.dir == CopyDir::D2H);
    CHECK(r[2].host.mem == HostMemKind::WriteCombined);
    CHECK(r[2].host.bytes == 16);
    CHECK(r[2].host.stream == 7);
    CHECK(r[2].host.async);
    CHECK(r[3].host.mem == HostMemKind::Device);
    CHECK(r[3].host.stream == 2);  // attributes in either order
    CHECK(r[4].kind == RecKind::Sync);
    CHECK(!r[4].host.has_stream);  // the whole device
    CHECK(r[5].host.has_stream);
    CHECK(r[5].host.stream == 9);  // a stream nothing used yet: valid
    CHECK(r[6].kind == RecKind::Host);
    CHECK(r[6].host.ns == 1500);
    CHECK(r[7].kind == RecKind::Map);
    CHECK(r[7].host.base == 0x1000);
    CHECK(r[7].host.bytes == 0x1000);
    CHECK(r[8].kernel.stream == 4);
    CHECK(r[8].kernel.present == KernelInfo::HasStream);
    // A trace of host statements and no kernel (a copy benchmark) is a trace.
    CHECK(parse(head + "copy h2d 1 pinned\n").size() == 2);
}

TEST_CASE("bad host statements are errors naming the line", "[text][bad-input]") {
    CHECK(error_of(head + "copy h2d 4096 cached\n") == "t.trace:3: unknown host memory kind 'cached' (pageable, pinned, wc, mapped, device)");
    CHECK(error_of(head + "copy up 4096 pinned\n") == "t.trace:3: unknown copy direction 'up' (h2d, d2h, d2d)");
    CHECK(error_of(head + "copy h2d 0 pinned\n") == "t.trace:3: copy of 0 bytes (1 to 1099511627776)");
    CHECK(error_of(head + "copy h2d -5 pinned\n") == "t.trace:3: bad copy size '-5'");
    CHECK(error_of(head + "copy h2d 1099511627777 pinned\n") == "t.trace:3: copy of 1099511627777 bytes (1 to 1099511627776)");
    CHECK(error_of(head + "copy d2d 64 pinned\n") == "t.trace:3: a d2d copy names 'device' memory");
    CHECK(error_of(head + "copy h2d 64 device\n") == "t.trace:3: an h2d or d2h copy names host memory, not 'device'");
    CHECK(error_of(head + "copy h2d 64 pinned async async\n") ==
          "t.trace:3: expected 'copy h2d|d2h|d2d BYTES pageable|pinned|wc|mapped|device [stream S] [async]', not 'async'");
    CHECK(error_of(head + "copy h2d 64 pinned stream\n") ==
          "t.trace:3: expected 'copy h2d|d2h|d2d BYTES pageable|pinned|wc|mapped|device [stream S] [async]', not 'stream'");
    CHECK(error_of(head + "copy h2d 64 pinned stream 65536\n") == "t.trace:3: stream 65536 too large (at most 65535)");
    CHECK(error_of(head + "sync 3\n") == "t.trace:3: expected 'sync [stream S]'");
    CHECK(error_of(head + "host\n") == "t.trace:3: expected 'host NS'");
    CHECK(error_of(head + "host 1099511627777\n") == "t.trace:3: host time 1099511627777 ns too large (at most 1099511627776)");
    CHECK(error_of(head + "map 0x1000 0\n") == "t.trace:3: map of 0 bytes (1 to 1099511627776)");
    CHECK(error_of(head + "map 0x1000 0x100\nmap 0x10ff 1\n") == "t.trace:4: mapped range overlaps another");
    CHECK(error_of(head + "map 0x1000 0x100\nmap 0xf00 0x101\n") == "t.trace:4: mapped range overlaps another");
    CHECK(error_of(head + "map 0x1000 0x100\nmap 0xf00 0x100\nmap 0x1100 1\n") == "no error");  // touching is not overlapping
    CHECK(error_of(head + "map 0xffffffff00000000 1\n") == "t.trace:3: mapped range ends past the address space");
    CHECK(error_of(head + "kernel k grid 1 1 1 block 64 1 1\ncopy h2d 1 pinned\nend\n") ==
          "t.trace:4: 'copy' inside kernel 'k': host statements come between 'end' and the next 'kernel'");
    CHECK(error_of(head + "kernel k grid 1 1 1 block 64 1 1 stream 70000\nend\n") == "t.trace:3: stream 70000 too large (at most 65535)");
    CHECK(error_of(head + "kernel k grid 1 1 1 block 64 1 1 stream 1 stream 2\nend\n") == "t.trace:3: 'stream' given twice");
}
