# Hostile traces (issue 22): each input a user found, in text and binary, is a
# one-line error naming the file and place, exit code 2 within a second, and
# leaves no output file. The binary inputs are tests/data/hostile/*.dctrace
# (made by make.py there: records the writers refuse, in a valid container).
source "$(dirname "$0")/lib.bash"
H="$SRC/tests/data/hostile"
J="$WORK/out.json"
C="$WORK/out.csv"
TOP="leaves the 64-bit address space less its top 4 GiB"
# hostile NAME REGEX TRACE: run and convert both refuse TRACE, quickly, leaving nothing.
hostile() {
    local name=$1 regex=$2 trace=$3 t0
    t0=$(date +%s%N)
    expect_error 2 "$regex" timeout 10 "$DCUSIM" run --quiet --json "$J" --csv "$C" "$trace"
    [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 1000 ] || fail "$name: took over a second"
    { [ ! -e "$J" ] && [ ! -e "$C" ]; } || fail "$name: run left an output file"
    expect_error 2 "$regex" timeout 10 "$DCUSIM" trace convert "$trace" "$WORK/conv.out"
    [ ! -e "$WORK/conv.out" ] || fail "$name: convert left an output file"
    rm -f "$J" "$C" "$WORK/conv.out"
}
k='dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1'
t() { printf "$k$2\n" >"$WORK/$1.trace"; echo "$WORK/$1.trace"; }

# An access in the last line of the space looped for ever in the coalescer (or died of bad_alloc).
hostile top-list "top_list.trace:5: global access of 4 bytes at 18446744073709551552 $TOP" \
    "$(t top_list '\nwave 0 0\nld global 4 0 0x1 list 0xffffffffffffffc0\nend')"
hostile top-affine "top_affine.trace:5: global access of 4 bytes at 18446744073709551612 $TOP" \
    "$(t top_affine '\nwave 0 0\nst global 4 0 all affine 0xfffffffffffffffc 0\nend')"
hostile top-list-bin "top_list.dctrace: chunk 1: global access of 4 bytes at 18446744073709551552 $TOP" "$H/top_list.dctrace"
hostile top-uniform-bin "top_uniform.dctrace: chunk 1: global access of 4 bytes at 18446744073709551612 $TOP" "$H/top_uniform.dctrace"
hostile lds-offset "lds_offset.trace:5: lds access of 4 bytes at 18446744073709551612 leaves the 4 GiB window" \
    "$(t lds_offset '\nwave 0 0\nld lds 4 0 all affine 0xfffffffffffffffc 0\nend')"
# 2^64 - 1 bytes of LDS rounded up to 0 and ran.
hostile lds-huge "lds_huge.trace:3: 'lds' 18446744073709551615 bytes too large" "$(t lds_huge ' lds 18446744073709551615\nend')"
hostile lds-huge-bin "lds_huge.dctrace: chunk 1: 'lds' 18446744073709551615 bytes too large" "$H/lds_huge.dctrace"
# The binary reader cut these to 32 bits (wave 2^40 was wave 0, vgprs 2^40 were 0).
hostile wave-bin "wave_2p40.dctrace: chunk 1: wave 1099511627776 outside its block" "$H/wave_2p40.dctrace"
hostile vgprs-bin "vgprs_2p40.dctrace: chunk 1: 'vgprs' too large" "$H/vgprs_2p40.dctrace"
hostile vgprs "vgprs.trace:3: 'vgprs' too large" "$(t vgprs ' vgprs 1099511627776\nend')"
# A stride of INT64_MIN was negated (undefined behaviour).
hostile int64-min "int64_min.trace:5: global access of 4 bytes at 16 \\(a lane below 0\\)" \
    "$(t int64_min '\nwave 0 0\nld global 4 0 0x3 affine 0x10 -0x8000000000000000\nend')"
hostile int64-min-bin "int64_min.dctrace: chunk 1: global access of 4 bytes at 16 \\(a lane below 0\\)" "$H/int64_min.dctrace"
# A kernel name with a newline dumped to text that convert refused.
hostile name-bin "name_newline.dctrace: chunk 1: kernel name must be printable ASCII" "$H/name_newline.dctrace"
# In text, past the first 4 KiB (before that a control character makes it a bad binary magic).
{ printf 'dcusim-trace 1\n#%04100d\nwave_size 64\n' 0; printf 'kernel a\001b grid 1 1 1 block 64 1 1\nend\n'; } >"$WORK/name.trace"
hostile name "name.trace:4: kernel name must be printable ASCII" "$WORK/name.trace"
# Container fields: reserved fields, bytes after the end chunk.
hostile header-reserved "header_reserved.dctrace: file header: reserved field is 7, not 0" "$H/header_reserved.dctrace"
hostile end-reserved "end_reserved.dctrace: chunk 2: end marker: reserved fields are 9 and 0, not 0" "$H/end_reserved.dctrace"
hostile trailing "trailing.dctrace: chunk 2: bytes after the end marker" "$H/trailing.dctrace"

# Valid inputs at the edges still run: the last byte below 2^64 - 2^32, a valid INT64_MIN stride.
# INT64_MIN on one lane is valid in every space: the LDS banks, constant cache and local swizzle compute with it.
m='-0x8000000000000000'
printf "$k\nwave 0 0\nld global 4 0 0x1 list 0xfffffffefffffffc\nld global 4 0 0x3 affine 0x8000000000000010 $m\nld lds 4 0 0x1 affine 0x10 $m\nld const 4 0 0x1 affine 0x10 $m\nst local 4 0 0x1 affine 0x10 $m\nend\n" >"$WORK/edge.trace"
expect_ok "$DCUSIM" run --quiet --json "$J" "$WORK/edge.trace"
# 1 line for the list, 2 for the INT64_MIN pair, 1 for the local store.
[ "$(json_stat "$J" l1.requests)" = 4 ] || fail "edge: l1.requests $(json_stat "$J" l1.requests), expected 4"
# A folder given as the trace.
rm -f "$J"
mkdir "$WORK/folder.trace"
hostile folder "folder.trace: is a folder, not a trace file" "$WORK/folder.trace"
# trace dump streams to stdout: cut short by a bad end chunk (after the last kernel's records),
# its text stops inside that kernel, so it cannot pass for the whole trace.
cp "$SRC/tests/data/compat/v1.dctrace" "$WORK/late.dctrace"
printf '\x09' | dd of="$WORK/late.dctrace" bs=1 seek=$(($(stat -c %s "$WORK/late.dctrace") - 20)) conv=notrunc 2>/dev/null
expect_error 2 "late.dctrace: chunk [0-9]+: end marker: reserved fields are 9" "$DCUSIM" trace dump "$WORK/late.dctrace"
cp "$WORK/out" "$WORK/dumped.trace"
grep -q '^kernel ' "$WORK/dumped.trace" || fail "dump: no kernel on stdout before the error"
[ "$(tail -n 1 "$WORK/dumped.trace")" != end ] || fail "dump: a failed dump ends with a complete kernel"
expect_error 2 "dumped.trace:[0-9]+: " "$DCUSIM" trace convert "$WORK/dumped.trace" "$WORK/x.dctrace"
# Only wave_size before the bad end chunk: nothing that reads as an empty trace.
expect_error 2 "end_reserved.dctrace: chunk 2: end marker" "$DCUSIM" trace dump "$H/end_reserved.dctrace"
[ ! -s "$WORK/out" ] || fail "dump: an empty trace's text before the error"
finish
