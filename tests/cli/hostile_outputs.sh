# Issue 22, outputs: all of them or none (the README: written only when the whole run succeeded),
# through symbolic links to their targets, with one-line errors.
source "$(dirname "$0")/lib.bash"
good="$SRC/traces/examples/transpose64.trace"
leftovers() { ls -a "$1" | grep -q 'tmp' && fail "$2: a temporary file was left in $1"; }

# The JSON would be fine, the CSV's folder does not exist: neither is written.
expect_error 2 "^dcusim run: /nonexistent/x.csv: cannot write \(No such file or directory\)$" \
    "$DCUSIM" run --quiet --json "$WORK/ok.json" --csv /nonexistent/x.csv "$good"
[ ! -e "$WORK/ok.json" ] || fail "ok.json was left beside a failed CSV"
leftovers "$WORK" "json+bad csv"
# Either order.
expect_error 2 "^dcusim run: /nonexistent/x.json: cannot write" "$DCUSIM" run --quiet --csv "$WORK/ok.csv" --json /nonexistent/x.json "$good"
[ ! -e "$WORK/ok.csv" ] || fail "ok.csv was left beside a failed JSON"
# A folder where the file should go, and /proc: refused, nothing left.
mkdir "$WORK/dir.json"
expect_error 2 "^dcusim run: $WORK/dir.json: cannot write" "$DCUSIM" run --quiet --csv "$WORK/ok.csv" --json "$WORK/dir.json" "$good"
[ ! -e "$WORK/ok.csv" ] || fail "ok.csv was left beside a folder"
leftovers "$WORK" "folder"
expect_error 2 "^dcusim run: /proc/x.csv: cannot write" "$DCUSIM" run --quiet --csv /proc/x.csv "$good"
# One file named for both outputs.
expect_error 2 "^dcusim run: $WORK/same: named for two outputs$" "$DCUSIM" run --quiet --csv "$WORK/same" --json "$WORK/same" "$good"
[ ! -e "$WORK/same" ] || fail "same: written"

# A symbolic link: its target gets the JSON, the link stays a link.
mkdir "$WORK/real"
echo old >"$WORK/real/out.json"
ln -s real/out.json "$WORK/link.json"
expect_ok "$DCUSIM" run --quiet --json "$WORK/link.json" "$good"
[ -L "$WORK/link.json" ] || fail "the link was replaced by a file"
grep -q '"kernels"' "$WORK/real/out.json" || fail "the link's target was not written"
leftovers "$WORK/real" "link"
# A link to a file yet to exist (dangling) is written through as well.
ln -s real/new.csv "$WORK/dangling.csv"
expect_ok "$DCUSIM" run --quiet --csv "$WORK/dangling.csv" "$good"
[ -L "$WORK/dangling.csv" ] && [ -s "$WORK/real/new.csv" ] || fail "dangling link: not written through"

# Both good: both written.
expect_ok "$DCUSIM" run --quiet --json "$WORK/a.json" --csv "$WORK/a.csv" "$good"
[ -s "$WORK/a.json" ] && [ -s "$WORK/a.csv" ] || fail "both outputs"
leftovers "$WORK" "both"

# trace convert onto a path that cannot be written: one line, exit 2.
expect_error 2 "^dcusim trace convert: /nonexistent/x.dctrace: cannot write$" "$DCUSIM" trace convert "$good" /nonexistent/x.dctrace
finish
