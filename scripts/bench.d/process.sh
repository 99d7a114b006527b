# Benchmarks of the built `jsonstore` as a process (sourced by scripts/bench): peak memory,
# idle cost of polling, and `list` against the read floor and jq. Each prints medians with
# min and max over RUNS.

# A store of N items of about 140 bytes each (pretty-printed, as a person would keep them).
make_store() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
st = ["todo", "doing", "done"]
for i in range(n):
    o = {"title": f"Task {i}: water the plants", "status": st[i % 3], "priority": i % 5,
         "tags": ["home", "garden"] if i % 2 else ["work"], "due": f"2026-12-{i % 28 + 1:02d}"}
    with open(f"{d}/item-{i:06d}.json", "w") as f:
        f.write(json.dumps(o, indent=2) + "\n")
PY
}

disk_bytes() { find "$1" -name '*.json' -print0 | du -cb --files0-from=- | tail -1 | cut -f1; }

# median_of VALUES...: the median; spread_of VALUES...: "M (min-max)".
# (An even count takes the mean of the middle two.)
MEDIAN='def med(v): n = len(v); return v[n // 2] if n % 2 else round((v[n // 2 - 1] + v[n // 2]) / 2, 3)'
median_of() { python3 -c "$MEDIAN"'
import sys; print(med(sorted(map(float, sys.argv[1:]))))' "$@"; }
spread_of() { python3 -c "$MEDIAN"'
import sys; v = sorted(map(float, sys.argv[1:])); print("%s (%s-%s)" % (med(v), v[0], v[-1]))' "$@"; }

# wait_for PATTERN FILE SECONDS: until the end of FILE (its last 64 KiB: the file may be a
# growing NDJSON line of hundreds of MB) holds PATTERN; fails after SECONDS.
wait_for() {
    local deadline=$(( $(date +%s) + $3 ))
    until tail -c 65536 "$2" 2>/dev/null | grep -q "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || { echo "bench: '$1' not seen in $3 s" >&2; return 1; }
        sleep 0.05
    done
}

# seconds_until PATTERN FILE SINCE SECONDS: waits as `wait_for` does, looking every 2 ms
# (not 50: a start of a tenth of a second is timed to a few milliseconds, not to the
# poll), and prints the seconds from SINCE (`date +%s.%N`) to when PATTERN was seen.
seconds_until() {
    python3 - "$@" <<'PY'
import os, sys, time
pattern, path, since, patience = sys.argv[1].encode(), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
seen = 0
while True:
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        size = 0
    if size != seen:
        seen = size
        with open(path, "rb") as f:
            f.seek(max(0, size - 65536))
            if pattern in f.read():
                print(round(time.time() - since, 3))
                break
    if time.time() - since > patience:
        sys.exit("bench: '%s' not seen in %s s" % (sys.argv[1], sys.argv[4]))
    time.sleep(0.002)
PY
}

# seconds_of DIGITS COMMAND...: the command's wall time in seconds, rounded to DIGITS
# places, its output dropped.
seconds_of() {
    local digits=$1 start; shift
    start=$(date +%s.%N)
    "$@" > /dev/null
    python3 -c "print(round($(date +%s.%N) - $start, $digits))"
}

# row CASE MEASURED JUDGED TARGET VERDICT: a row of `scripts/bench all`'s table.
row() { echo "row | $1 | $2 | $3 | $4 | $5"; }

# verdict EXPR: "met" when the Python expression holds, else "missed".
verdict() { python3 -c "print('met' if ($1) else 'missed')"; }

# peak_rss_mib COMMAND...: runs the command, its stdout to /dev/null, and prints its peak
# RSS in MiB (the kernel's maximum resident set of the child).
peak_rss_mib() {
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"
}

# peak_mib PID: the process's peak RSS so far (VmHWM), in MiB.
peak_mib() { awk '/VmHWM/{print int($2/1024)}' "/proc/$1/status"; }
# rss_mib PID: what the process holds now (its resident set), in MiB.
rss_mib() { awk '/VmRSS/{print int($2/1024)}' "/proc/$1/status"; }

# stats NAME VALUES...: "NAME: median M (min-max)"
stats() { local name=$1; shift; echo "$name: median $(spread_of "$@")"; }

# follow_json_run DIR PATIENCE [cached|settled] and view_run DIR PATIENCE: "SECONDS MIB",
# the time from the start to `list --follow --json`'s initial event (to the list view's
# first frame, in a pseudo-terminal) and the process's peak RSS then. With `cached`, the
# follower is kept until it has written its start cache (`.jsonstore/start`, newer than its
# start), for the next start; with `settled`, the same, and two figures more: its peak RSS
# by then (what the history's first look and the cache's writing add) and what it holds
# two seconds later, at rest (what a follower keeps while it follows). Each runs in a
# subshell, `$(...)`, whose EXIT trap stops what it started, failure included.
follow_json_run() {
    local out=$dir/follow.out start
    run_pid=""  # not local: the subshell's EXIT trap may run after the function has returned
    trap 'kill ${run_pid:-} 2>/dev/null || true' EXIT
    start=$(date +%s.%N)
    "$bin" --dir "$1" list --follow --json > "$out" &
    run_pid=$!
    local seconds; seconds=$(seconds_until '"invalid"' "$out" "$start" "$2") || return 1
    sleep 0.5
    local mib; mib=$(peak_mib "$run_pid")
    if [ -n "${3:-}" ]; then
        local cache=$1/.jsonstore/start deadline=$(( $(date +%s) + $2 ))
        until [ -f "$cache" ] && python3 -c "import os,sys; sys.exit(0 if os.stat('$cache').st_mtime > $start else 1)"; do
            [ "$(date +%s)" -lt "$deadline" ] || { echo "bench: no start cache in $2 s" >&2; return 1; }
            sleep 0.1
        done
    fi
    if [ "${3:-}" = settled ]; then
        local peak; peak=$(peak_mib "$run_pid")
        sleep 2
        echo "$seconds $mib $peak $(rss_mib "$run_pid")"
    else
        echo "$seconds $mib"
    fi
    kill "$run_pid"; wait "$run_pid" 2>/dev/null || true
}

# edit_stopped DIR ROUND: edits made while nothing runs, as a second start must find them:
# 1 % of the files rewritten (half of them at the same size, both times put back), 0.5 %
# deleted and as many new ones made. Repeated on one store, a file edited again has its
# "edited" member set, not added a second time (which made it invalid, and the initial
# event's list of invalid files longer than `wait_for` looks).
edit_stopped() {
    python3 - "$1" "$2" <<'PY'
import os, re, sys
d, r = sys.argv[1], int(sys.argv[2])
names = sorted(n for n in os.listdir(d) if n.endswith(".json"))
n = len(names)
step = max(1, n // max(1, n // 100))
for k, name in enumerate(names[r % step::step]):
    p = os.path.join(d, name)
    st = os.stat(p)
    text = open(p).read()
    if k % 2:
        open(p, "w").write(text.replace("plants", "PLANTS") if "plants" in text else text.replace("PLANTS", "plants"))
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif '"edited": ' in text:  # edited in an earlier round: its value, not a second member
        open(p, "w").write(re.sub(r'"edited": \d+', '"edited": %d' % r, text))
    else:
        open(p, "w").write(text.replace("\n}", ',\n  "edited": %d\n}' % r))
for name in names[(r + 1) % (2 * step)::2 * step]:
    if os.path.exists(os.path.join(d, name)):
        os.remove(os.path.join(d, name))
for k in range(max(1, n // 200)):
    with open(os.path.join(d, "new-%d-%06d.json" % (r, k)), "w") as f:
        f.write('{"title": "made while nothing ran", "round": %d}\n' % r)
PY
}

# A follower's second start, from the start cache its first start wrote, against a first
# start without one (the cache removed), alternating; before each second start,
# `edit_stopped`'s edits. Target: the second start's initial event in at most a quarter of
# the first's time.
bench_start() {
    local store=$dir/store; make_store "$store" "$items"
    local scale=1; [ -z "${cold:-}" ] || scale=5  # a cold start reads the disk
    local patience=$(( (120 + items / 10000) * scale ))
    local first=() second=() firstmem=() secondmem=() s m
    # cold: what is written reaches the disk, then the page, inode and dentry caches go.
    cool() { [ -z "${cold:-}" ] || { sync; echo 3 > /proc/sys/vm/drop_caches; }; }
    for r in $(seq 1 "$runs"); do
        rm -f "$store/.jsonstore/start"
        cool
        read -r s m <<< "$(follow_json_run "$store" "$patience" cached)"
        first+=("$s"); firstmem+=("$m")
        edit_stopped "$store" "$r"
        cool
        read -r s m <<< "$(follow_json_run "$store" "$patience")"
        second+=("$s"); secondmem+=("$m")
    done
    echo "items: $items${cold:+, each start with the caches of the kernel dropped}; before each second start 1 % rewritten (half at the same size, times put back), 0.5 % deleted, 0.5 % new"
    stats "first start, no cache: to the initial event (s)" "${first[@]}"
    stats "second start, from the cache: to the initial event (s)" "${second[@]}"
    stats "first start: peak RSS (MiB)" "${firstmem[@]}"
    stats "second start: peak RSS (MiB)" "${secondmem[@]}"
    local f s2; f=$(median_of "${first[@]}"); s2=$(median_of "${second[@]}")
    row "second start from the cache, $items items${cold:+, cold}" "$(spread_of "${second[@]}") s" \
        "first start: $f s ($(python3 -c "print(round($s2 / $f, 2))")x)" "<= 0.25x" \
        "$(verdict "$s2 <= 0.25 * $f")"
}

# The same, each start from a cold cache (needs root to drop the kernel's caches).
bench_start_cold() {
    [ -w /proc/sys/vm/drop_caches ] || { echo "bench: start-cold drops the kernel's caches: run it as root" >&2; return 1; }
    cold=1 bench_start
}

view_run() {  # view_run DIR PATIENCE [LIST-OPTIONS]
    local out=$dir/view.out start
    run_pid="" run_script=""
    trap 'kill ${run_pid:-} ${run_script:-} 2>/dev/null || true' EXIT
    start=$(date +%s.%N)
    TERM=xterm-256color script -qfc "$bin --dir $1 list --follow ${3:-}" /dev/null > "$out" 2>&1 &
    run_script=$!
    local pid=""
    for _ in $(seq 1 100); do pid=$(pgrep -f "^$bin --dir $1 list --follow ?${3:-}\$") && break; sleep 0.05; done
    run_pid=$pid
    [ -n "$pid" ] || { echo "bench: the list view did not start" >&2; return 1; }
    local seconds; seconds=$(seconds_until "item-0000" "$out" "$start" "$2") || return 1
    sleep 1
    echo "$seconds $(peak_mib "$pid")"
    kill "$pid" 2>/dev/null; wait "$run_script" 2>/dev/null || true
}

# The list view's first frame with rows: in id order (the first screen read before the
# store is loaded) and sorted by title, from the start cache (the first screen as the cache
# knows the store, each row read from its file) and without one (behind the overlay until
# every item is read), side by side, alternating. A follower writes the cache first.
bench_first_frame() {
    local store=$dir/store; make_store "$store" "$items"
    local patience=$(( 120 + items / 10000 ))
    rm -rf "$store/.jsonstore"
    # In a subshell, as every run: its EXIT trap must not replace the script's, which
    # removes the benchmark's directory.
    (follow_json_run "$store" "$patience" settled > /dev/null)
    local byid=() sorted=() uncached=()
    for _ in $(seq 1 "$runs"); do
        byid+=("$(view_run "$store" "$patience" | cut -d' ' -f1)")
        sorted+=("$(view_run "$store" "$patience" "--sort title" | cut -d' ' -f1)")
        mv "$store/.jsonstore" "$dir/kept-state"
        uncached+=("$(view_run "$store" "$patience" "--sort title" | cut -d' ' -f1)")
        rm -rf "$store/.jsonstore"; mv "$dir/kept-state" "$store/.jsonstore"
    done
    echo "items: $items"
    stats "list view, first frame with rows, id order (s)" "${byid[@]}"
    stats "list view, first frame with rows, --sort title, from the start cache (s)" "${sorted[@]}"
    stats "list view, first frame with rows, --sort title, no start cache (s)" "${uncached[@]}"
    row "list view, first frame, $items items, id order" "$(spread_of "${byid[@]}") s" \
        "" "<= 2 s" "$(verdict "$(median_of "${byid[@]}") <= 2")"
    row "list view, first frame, $items items, --sort title, cached" "$(spread_of "${sorted[@]}") s" \
        "no cache: $(median_of "${uncached[@]}") s" "<= 2 s" "$(verdict "$(median_of "${sorted[@]}") <= 2")"
}

bench_memory() {
    local store=$dir/store; make_store "$store" "$items"
    local bytes; bytes=$(disk_bytes "$store")
    # Issue 28's target: 1.5 x the files + 30 MiB.
    local target=$(( (3 * bytes) / 2 / 1048576 + 30 ))
    local follow=() settled=() rest=() view=() s m p r
    local patience=$(( 120 + items / 10000 ))
    for _ in $(seq 1 "$runs"); do
        # A first start each time: no journal, no start cache.
        rm -rf "$store/.jsonstore"
        read -r s m p r <<< "$(follow_json_run "$store" "$patience" settled)"
        follow+=("$m"); settled+=("$p"); rest+=("$r")
        rm -rf "$store/.jsonstore"  # the list view's first start too
        view+=("$(view_run "$store" "$patience" | cut -d' ' -f2)")
    done
    echo "items: $items, on disk: $bytes bytes; target 1.5 x disk + 30 MiB = $target MiB"
    stats "peak RSS, list --follow --json, to the initial event (MiB)" "${follow[@]}"
    stats "peak RSS, list --follow --json, until its history and start cache are written (MiB)" "${settled[@]}"
    stats "RSS at rest, list --follow --json, 2 s after that (MiB)" "${rest[@]}"
    stats "peak RSS, list view (MiB)" "${view[@]}"
    row "peak RSS, list --follow --json, $items items" "$(spread_of "${follow[@]}") MiB" \
        "$((bytes / 1000)) kB on disk" "<= $target MiB" "$(verdict "$(median_of "${follow[@]}") <= $target")"
    row "peak RSS, list --follow --json settled, $items items" "$(spread_of "${settled[@]}") MiB" \
        "$((bytes / 1000)) kB on disk" "<= $target MiB" "$(verdict "$(median_of "${settled[@]}") <= $target")"
    row "RSS at rest, list --follow --json, $items items" "$(spread_of "${rest[@]}") MiB" \
        "$((bytes / 1000)) kB on disk" "<= $target MiB" "$(verdict "$(median_of "${rest[@]}") <= $target")"
    row "peak RSS, list view, $items items" "$(spread_of "${view[@]}") MiB" \
        "$((bytes / 1000)) kB on disk" "<= $target MiB" "$(verdict "$(median_of "${view[@]}") <= $target")"
}

# CPU share of a core and peak RSS of `list --follow --json --poll 1` while nothing changes.
bench_poll() {
    local store=$dir/store; make_store "$store" "$items"
    local cpu=() rss=()
    for _ in $(seq 1 "$runs"); do
        local out; out=$(mktemp)
        "$bin" --dir "$store" list --follow --json --poll 1 > "$out" &
        local pid=$!
        for _ in $(seq 1 1200); do grep -q '"invalid"' "$out" 2>/dev/null && break; sleep 0.05; done
        sleep 2
        local t0 s0 t1 s1
        t0=$(awk '{print $14+$15}' /proc/$pid/stat); s0=$(date +%s.%N)
        sleep 10
        t1=$(awk '{print $14+$15}' /proc/$pid/stat); s1=$(date +%s.%N)
        cpu+=("$(python3 -c "print(round(100*($t1-$t0)/$(getconf CLK_TCK)/($s1-$s0),1))")")
        rss+=("$(peak_mib "$pid")")
        kill $pid; wait $pid 2>/dev/null; rm -f "$out"
    done
    echo "items: $items, polling every 1 s, idle for 10 s a run"
    stats "idle CPU (% of a core)" "${cpu[@]}"
    stats "peak RSS (MiB)" "${rss[@]}"
    local per100k; per100k=$(python3 -c "print(round($(median_of "${cpu[@]}") * 100000 / $items, 1))")
    row "polling, idle, $items items" "$(spread_of "${cpu[@]}") % of a core" "$per100k % per 100,000 items" \
        "<= 10 %" "$(verdict "$per100k <= 10")"
}

# `list --json` and `list -o tsv` against reading the files and nothing else (the floor:
# `jsonstore-bench floor`, which reads every file and writes its bytes out, as cat would)
# and jq over the same files, alternating, wall-clock seconds.
bench_list() {
    local store=$dir/store; make_store "$store" "$items"
    command -v jq >/dev/null || { { apt-get update -qq && apt-get install -y -qq jq; } >/dev/null 2>&1 || true; }
    local json=() tsv=() floor=() jqs=()
    t() { seconds_of 3 "$@"; }
    for _ in $(seq 1 "$runs"); do
        floor+=("$(t "$benchbin" floor "$store" 1 1)")
        json+=("$(t "$bin" --dir "$store" list --json)")
        tsv+=("$(t "$bin" --dir "$store" list -o tsv)")
        if command -v jq >/dev/null; then
            jqs+=("$(t sh -c "find '$store' -name '*.json' -print0 | xargs -0 jq -c .")")
        fi
    done
    echo "items: $items, runs: $runs"
    stats "read floor, jsonstore-bench floor (s)" "${floor[@]}"
    stats "jsonstore list --json (s)" "${json[@]}"
    stats "jsonstore list -o tsv (s)" "${tsv[@]}"
    [ ${#jqs[@]} -gt 0 ] && stats "jq -c . over the files (s)" "${jqs[@]}"
    local f j v; f=$(median_of "${floor[@]}"); j=$(median_of "${json[@]}"); v=$(median_of "${tsv[@]}")
    # Ratios judged unrounded; three decimals shown.
    local rj rv; rj=$(python3 -c "print('%.3f' % ($j / $f))"); rv=$(python3 -c "print('%.3f' % ($v / $f))")
    echo "list --json / floor: ${rj}x; list -o tsv / floor: ${rv}x"
    row "list --json, $items items" "$(spread_of "${json[@]}") s" "${rj}x the floor ($f s)" "<= 1.5x" \
        "$(verdict "$j / $f <= 1.5")"
    row "list -o tsv, $items items" "$(spread_of "${tsv[@]}") s" "${rv}x the floor" "<= 1.5x" \
        "$(verdict "$v / $f <= 1.5")"
    # A one-shot listing in id order is written as it is read: its memory is flat.
    local rss; rss=$(peak_rss_mib "$bin" --dir "$store" list --json)
    echo "list --json peak RSS: $rss MiB"
    row "peak RSS, list --json, $items items" "$rss MiB" "written as read" "<= 40 MiB" \
        "$(verdict "$rss <= 40")"
    if [ ${#jqs[@]} -gt 0 ]; then
        local q; q=$(median_of "${jqs[@]}")
        local rq; rq=$(python3 -c "print('%.3f' % ($q / $j))")
        echo "jq / list --json: ${rq}x"
        row "jq -c . over the files, $items items" "$(spread_of "${jqs[@]}") s" "${rq}x list --json" ">= 3x" \
            "$(verdict "$q / $j >= 3")"
    fi
}

# A million items (or ITEMS): the live benchmark's two stores (1,000 items and ITEMS, the
# edit -> observer latency at each), then, on the big one, the time to the NDJSON initial
# event and to the list view's first frame, and the peak RSS of each against the formula.
bench_million() {
    "$benchbin" live "$dir" "$items" "$runs"
    local store=$dir/$items
    local bytes; bytes=$(disk_bytes "$store")
    local target=$(( (3 * bytes) / 1048576 + 30 ))
    local patience=$(( 120 + items / 10000 ))  # seconds: about 10 s a 100,000 items, and more
    local json_result view_result load follow drawn view
    json_result=$(follow_json_run "$store" "$patience")
    view_result=$(view_run "$store" "$patience")
    read -r load follow <<< "$json_result"
    read -r drawn view <<< "$view_result"
    echo "items: $items, on disk: $bytes bytes; target 3 x disk + 30 MiB = $target MiB"
    echo "list --follow --json: initial event after $load s, peak RSS $follow MiB"
    echo "list view: first frame after $drawn s, peak RSS $view MiB"
    row "load $items items, list --follow --json" "$load s to the initial event" "-" "-" "-"
    row "load $items items, list view" "$drawn s to the first frame" "-" "-" "-"
    row "peak RSS, list --follow --json, $items items" "$follow MiB" "$((bytes / 1000000)) MB on disk" \
        "<= $target MiB" "$(verdict "$follow <= $target")"
    row "peak RSS, list view, $items items" "$view MiB" "$((bytes / 1000000)) MB on disk" "<= $target MiB" \
        "$(verdict "$view <= $target")"
    local once; once=$(peak_rss_mib "$bin" --dir "$store" list --json)
    echo "list --json (one-shot): peak RSS $once MiB"
    row "peak RSS, list --json (one-shot), $items items" "$once MiB" "written as read" \
        "<= 40 MiB" "$(verdict "$once <= 40")"
}

# The guard (`.ci/run`): the ratio benchmarks at ITEMS (default 20,000), each against a
# limit well beyond noise, looser than its target (BENCHMARKS.md, "The guard"). Prints a
# line per row and exits 1 naming every row over its limit, its figure and the limit.
bench_guard() {
    local started; started=$(date +%s)
    local store=$dir/store; make_store "$store" "$items"
    local failed=0
    # check ROW FIGURE LIMIT PYTHON-EXPRESSION
    check() {
        if python3 -c "import sys; sys.exit(0 if ($4) else 1)"; then
            echo "guard: ok      $1: $2 (limit $3)"
        else
            echo "guard: FAILED  $1: $2, over its limit $3" >&2
            failed=1
        fi
    }
    local t0; t0=$(date +%s)
    echo "guard: $items items made in $(( t0 - started )) s"
    # `list --json` against the read floor, alternating, wall-clock seconds. Over the limit,
    # measured once more: a burst of other work on the machine passes, a regression stays.
    t() { seconds_of 4 "$@"; }
    "$bin" --dir "$store" list --json > /dev/null  # the files in the page cache for both
    local f j r
    for attempt in 1 2; do
        local json=() floor=()
        for _ in 1 2 3 4 5; do
            floor+=("$(t "$benchbin" floor "$store" 1 1)")
            json+=("$(t "$bin" --dir "$store" list --json)")
        done
        f=$(median_of "${floor[@]}"); j=$(median_of "${json[@]}")
        r=$(python3 -c "print('%.2f' % ($j / $f))")
        python3 -c "import sys; sys.exit(0 if $j / $f <= 2.5 else 1)" && break
        [ "$attempt" = 2 ] || echo "guard: list --json at ${r}x the floor, over 2.5x: once more"
    done
    check "list --json, $items items" "${r}x the read floor ($j s against $f s)" "2.5x" "$j / $f <= 2.5"
    # The one-shot listing's memory: written as read, flat.
    local rss; rss=$(peak_rss_mib "$bin" --dir "$store" list --json)
    check "peak RSS, list --json, $items items" "$rss MiB" "40 MiB" "$rss <= 40"
    # Idle polling, its share of a core scaled to 100,000 items.
    local out=$dir/poll.out
    "$bin" --dir "$store" list --follow --json --poll 1 > "$out" &
    local pid=$!
    wait_for '"invalid"' "$out" 60 || { kill "$pid"; return 1; }
    sleep 2
    local c0 s0 c1 s1
    c0=$(awk '{print $14+$15}' "/proc/$pid/stat"); s0=$(date +%s.%N)
    sleep 8
    c1=$(awk '{print $14+$15}' "/proc/$pid/stat"); s1=$(date +%s.%N)
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local cpu scaled
    cpu=$(python3 -c "print(round(100*($c1-$c0)/$(getconf CLK_TCK)/($s1-$s0),2))")
    scaled=$(python3 -c "print(round($cpu * 100000 / $items, 1))")
    check "polling, idle, $items items" "$cpu % of a core, $scaled % per 100,000 items" \
        "20 % per 100,000 items" "$scaled <= 20"
    # Edit -> follower line against inotifywait on the same edits.
    command -v inotifywait >/dev/null \
        || { echo "guard: inotifywait is missing (apt-get install inotify-tools)" >&2; return 1; }
    # The follower alone (--no-history), and as it runs by default: its lines wait for the
    # journal to record each change (an append and its fdatasync).
    local live ratio journaled
    live=$("$benchbin" inotify-floor "$dir" "$items" 200)
    echo "$live" | grep -v '^row | '
    ratio=$(echo "$live" | sed -n 's/^follower \/ inotifywait: //p')
    journaled=$(echo "$live" | sed -n 's/^journaled follower \/ inotifywait: //p')
    [ -n "$ratio" ] && [ -n "$journaled" ] \
        || { echo "guard: no edit -> follower figure (above)" >&2; return 1; }
    check "edit -> list --follow --json line, p50, $items items" "${ratio}x inotifywait's" "6x" "$ratio <= 6"
    check "edit -> list --follow --json line, journal recorded, p50, $items items" \
        "${journaled}x inotifywait's" "15x" "$journaled <= 15"
    echo "guard: measured in $(( $(date +%s) - t0 )) s"
    if [ "$failed" != 0 ]; then
        echo "guard: a benchmark is over its limit (above): a regression; see BENCHMARKS.md" >&2
        return 1
    fi
}
