# Every bad input: a one-line error naming the file and place (or the key),
# exit code 2, and no JSON or CSV left behind.
source "$(dirname "$0")/lib.bash"
J="$WORK/out.json"
C="$WORK/out.csv"
no_outputs() { [ ! -e "$J" ] && [ ! -e "$C" ] || fail "$1: an output file was left behind"; ls "$WORK" | grep -q tmp && fail "$1: temp file left"; }
run_bad() {  # run_bad NAME REGEX ARGS...
    local name=$1 regex=$2
    shift 2
    expect_error 2 "$regex" "$DCUSIM" run --quiet --json "$J" --csv "$C" "$@"
    no_outputs "$name"
}

good="$WORK/good.trace"
printf 'dcusim-trace 1\nwave_size 64\nkernel a grid 2 1 1 block 64 1 1\nwave 0 0\nld lds 4 0 all affine 0 4\nwave 1 0\nld lds 4 0 all affine 0 4\nend\n' >"$good"

printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 5 0 all affine 0 4\nend\n' >"$WORK/bad1.trace"
run_bad text "bad1.trace:5: access size must be 1, 2, 4, 8 or 16 bytes" "$WORK/bad1.trace"

# The error is in the second kernel, after the first one was simulated: still no output.
{ cat "$good"; printf 'kernel b grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0 all affine zz 4\nend\n'; } >"$WORK/late.trace"
run_bad late "late.trace:11: bad base address 'zz'" "$WORK/late.trace"

expect_ok "$DCUSIM" trace convert "$good" "$WORK/good.dctrace"
bin="$WORK/good.dctrace"
size=$(stat -c %s "$bin")
{ printf 'XXXXXXXX'; tail -c +9 "$bin"; } >"$WORK/magic.dctrace"
run_bad magic "magic.dctrace: bad magic" "$WORK/magic.dctrace"
{ head -c 8 "$bin"; printf '\x07\x00\x00\x00'; tail -c +13 "$bin"; } >"$WORK/version.dctrace"
run_bad version "version.dctrace: unsupported binary trace version 7" "$WORK/version.dctrace"
{ head -c 45 "$bin"; printf '\xff'; tail -c +47 "$bin"; } >"$WORK/sum.dctrace"
run_bad checksum "sum.dctrace: chunk 1: checksum mismatch" "$WORK/sum.dctrace"
head -c $((size - 30)) "$bin" >"$WORK/cut.dctrace"
run_bad truncated "cut.dctrace: chunk 1: truncated" "$WORK/cut.dctrace"
head -c $((size - 24)) "$bin" >"$WORK/noend.dctrace"
run_bad no-end "noend.dctrace: chunk 2: truncated: the file ends without its end marker" "$WORK/noend.dctrace"

run_bad missing "nope.trace: cannot open trace file" "$WORK/nope.trace"
run_bad unknown-key "unrecognised option '--lds.bankz'" --lds.bankz 4 "$good"
run_bad zero-banks "key 'lds.banks': must be at least 1, not 0" --lds.banks 0 "$good"
run_bad wave-size "key 'cu.wave_size': must be one of 32, 64, not 48" --cu.wave_size 48 "$good"
run_bad l1-banks "key 'l1.data_banks': must be at most 1024, not 5000" --l1.data_banks 5000 "$good"
run_bad dram-banks "key 'dram.banks_per_group': at most 1024 banks per channel" --dram.bank_groups 64 --dram.banks_per_group 32 "$good"
run_bad l2-foreign "key 'l2.dirty_at_launch_bytes': exceeds l2.size_bytes" --l2.dirty_at_launch_bytes 8M "$good"
run_bad size "key 'lds.size_bytes': '64Q' is not a size" --lds.size_bytes 64Q "$good"
# Found by fuzzing the presets: a clock of 2^31 MHz made a period of 0 ps (a division by zero).
run_bad core-clock "key 'cu.clock_mhz': must be at most 1000000 \\(a period of 1 ps\\)" --cu.clock_mhz 2147483648 "$good"
run_bad memory-clock "key 'dram.clock_mhz': must be at most 1000000" --dram.clock_mhz 1e7 "$good"
run_bad partitions "key 'l2.partitions': must be at most l2.channels and cu.count" --l2.partitions 17 "$good"
# Sizes that would exhaust the host (found by fuzzing: a 4 GiB constant cache ran out of memory after minutes).
run_bad many-cus "key 'cu.count': must be at most 4096 \\(a limit of dcusim\\), not 100000" --cu.count 100000 "$good"
run_bad many-mshrs "key 'l2.mshrs': must be at most 65536 \\(a limit of dcusim\\)" --l2.mshrs 4000000000 "$good"
run_bad wide-size "key 'dram.interleave_bytes': must be at most 1M, not 4G" --dram.interleave_bytes 4G "$good"  # was 0 in 32 bits: SIGFPE
run_bad refresh "key 'dram.tREFI': dram.tREFI must be 0 \\(no refresh\\) or more than tRP \\+ tRFC \\+ one access \\(276\\)" --dram.tREFI 7 "$good"  # refreshed forever
run_bad timing "key 'dram.tCCD_L': must be at most 4096 \\(memory cycles\\)" --dram.tCCD_L 2147483648 "$good"
run_bad store-rate "key 'noc.store_bytes_per_cycle': must be 0 or between 0.0009765625 and 1000000" --noc.store_bytes_per_cycle 1e-9 "$good"  # a link time past 64 bits
run_bad barrier-slot "key 'cu.barrier_arrive_cycles': must be 0 or between 0.0009765625 and 1000000" --cu.barrier_arrive_cycles 1e30 "$good"  # a slot past 64 bits
run_bad load-rate "key 'noc.load_bytes_per_cycle': must be 0 or between 0.0009765625 and 1000000" --noc.load_bytes_per_cycle 2e6 "$good"
run_bad huge-cache "key 'const.size_bytes': the caches would hold 369147904 lines in all, at most 33554432" --const.size_bytes 1G "$good"
printf '[lds]\nbanks = 32\nbankz = 4\n' >"$WORK/bad.ini"
run_bad ini "bad.ini:3: unknown key 'lds.bankz'" --config "$WORK/bad.ini" "$good"
printf '[const]\nline_bytes = 48\n' >"$WORK/bad2.ini"
run_bad ini-consistency "bad2.ini:2: key 'const.line_bytes': must be a power of two" --config "$WORK/bad2.ini" "$good"
run_bad arg-consistency "^dcusim run: --const.line_bytes: key 'const.line_bytes': must be a power of two" --config "$WORK/bad2.ini" --const.line_bytes 48 "$good"
sed 's/block 64 1 1/block 64 1 1 lds 4096/' "$good" >"$WORK/lds.trace"
run_bad no-fit "kernel 'a': workgroup needs 4096 bytes of LDS, the preset has 2048" --lds.size_bytes 2K "$WORK/lds.trace"
expect_error 2 "unknown level 'loud'" "$DCUSIM" run --log-level loud "$good"
# Keys added for the H200 validation: lists, choices, and checks against other keys.
run_bad carveout-list "key 'lds.carveouts': '1x' is not a size" --lds.carveouts 1x,2 "$good"
run_bad fetch-bytes "key 'l2.fetch_bytes': must be a multiple of l2.sector_bytes that divides l2.line_bytes" --l2.fetch_bytes 48 "$good"
run_bad carveouts-too-small "key 'lds.carveouts': the largest must be at least lds.size_bytes" --l1.unified_bytes 256K --lds.carveouts 0,8K "$good"
run_bad min-carveout "key 'lds.min_carveout': exceeds the largest of lds.carveouts" --l1.unified_bytes 256K --lds.size_bytes 64K --lds.carveouts 0,64K --lds.min_carveout 100K "$good"
run_bad set-hash "key 'l1.set_hash': must be one of on, off, not 'maybe'" --l1.set_hash maybe "$good"
run_bad carveout-leaves-no-l1 "key 'lds.carveouts': each must leave the L1" --l1.unified_bytes 64K --lds.carveouts 0,64K "$good"
run_bad allocate-choice "must be one of on, off, not 'maybe'" --l1.local_write_allocate maybe "$good"
expect_error 2 "unknown command 'walk'" "$DCUSIM" walk
expect_error 2 "bad1.trace:5: access size" "$DCUSIM" trace stats "$WORK/bad1.trace"
expect_error 2 "magic.dctrace: bad magic" "$DCUSIM" trace convert "$WORK/magic.dctrace" "$WORK/x.trace"
[ ! -e "$WORK/x.trace" ] || fail "convert left a partial output"
finish
