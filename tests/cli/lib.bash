# Helpers for the command-line tests: each test script gets DCUSIM and SRC.
set -u
DCUSIM=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_error CODE REGEX CMD...: CMD exits CODE and its stderr matches REGEX (one line).
expect_error() {
    local code=$1 regex=$2
    shift 2
    "$@" >"$WORK/out" 2>"$WORK/err"
    local rc=$?
    [ "$rc" -eq "$code" ] || fail "$* exited $rc, expected $code; stderr: $(cat "$WORK/err")"
    grep -Eq -- "$regex" "$WORK/err" || fail "$*: stderr '$(cat "$WORK/err")' does not match '$regex'"
    [ "$(wc -l <"$WORK/err")" -le 1 ] || fail "$*: error is more than one line: $(cat "$WORK/err")"
}

# expect_ok CMD...: exit 0.
expect_ok() {
    "$@" >"$WORK/out" 2>"$WORK/err" || fail "$* exited $?; stderr: $(cat "$WORK/err")"
}

# within PREDICTED MEASURED FRACTION: PREDICTED is within FRACTION of MEASURED (either way).
within() { awk -v p="$1" -v m="$2" -v f="$3" 'BEGIN { e = p / m - 1; exit !(e <= f && e >= -f) }'; }

# json_stat FILE KEY: the first value of "KEY": N in FILE.
json_stat() { grep -m1 -E "\"$2\": " "$1" | sed -E 's/.*: ([0-9.e+-]+),?$/\1/'; }

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
}

# csv_stat FILE KEY: KEY's value in the first data row of a `dcusim run --csv` file
# (the kernel name, field 2, may be quoted and hold commas: it is skipped).
csv_stat() {
    awk -v key="$2" 'NR == 1 { n = split($0, h, ","); for (i = 1; i <= n; ++i) if (h[i] == key) c = i - 2 }
        NR == 2 { sub(/^[^,]*,("[^"]*"|[^,]*),/, ""); split($0, f, ","); print f[c]; exit }' "$1"
}
