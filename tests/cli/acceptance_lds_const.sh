# Issue acceptance 2-4 through the command line.
source "$(dirname "$0")/lib.bash"

one() {  # one 64-lane instruction
    printf 'dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n%s\nend\n' "$1" >"$WORK/$2.trace"
}
check() {  # check TRACE "FLAGS" KEY EXPECTED
    "$DCUSIM" run --quiet $2 --json "$WORK/r.json" "$WORK/$1.trace" >/dev/null 2>"$WORK/err" || fail "$1 $2: $(cat "$WORK/err")"
    local got
    got=$(json_stat "$WORK/r.json" "$3")
    [ "$got" = "$4" ] || fail "$1 $2: $3 = $got, expected $4"
}
one "ld lds 4 0x10 all affine 0 128" s128
one "ld lds 4 0x10 all affine 0 132" s132
one "ld lds 4 0x10 all affine 0x20 0" same
check s128 "" lds.cycles 64
check s128 "" lds.bank_conflict_cycles 62
check s132 "" lds.cycles 2
check s132 "" lds.bank_conflict_cycles 0
check same "" lds.cycles 2
check same "" lds.bank_conflict_cycles 0
check s128 "--lds.banks 16" lds.cycles 64
check s128 "--lds.banks 16" lds.bank_conflict_cycles 60
check s128 "--lds.banks 64" lds.cycles 32
check s128 "--lds.banks 64" lds.bank_conflict_cycles 31

one "ld const 4 0x10 all affine 0x100 0" c1
list=$(for i in $(seq 0 63); do printf '0x%x ' $((0x100 + (i % 4) * 64)); done)
one "ld const 4 0x10 all list $list" c4
check c1 "" const.requests 1
check c4 "--const.divergent serialize" const.requests 4
check c4 "--const.divergent vector" const.requests 0
check c4 "--const.divergent vector" const.vector_instructions 1
finish
