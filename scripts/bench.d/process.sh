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

# stats NAME VALUES...: "NAME: median M (min-max)"
stats() {
    local name=$1; shift
    python3 -c 'import sys; v=sorted(map(float,sys.argv[2:])); print("%s: median %s (%s-%s)" % (sys.argv[1], v[len(v)//2], v[0], v[-1]))' "$name" "$@"
}

# Peak RSS (MiB) of `list --follow --json` once its initial event is written, and of the
# list view (in a pseudo-terminal) once it has drawn the loaded store.
peak_follow_json() {
    local out; out=$(mktemp)
    "$bin" --dir "$1" list --follow --json > "$out" &
    local pid=$!
    for _ in $(seq 1 1200); do grep -q '"invalid"' "$out" 2>/dev/null && break; sleep 0.05; done
    sleep 0.5
    awk '/VmHWM/{print int($2/1024)}' /proc/$pid/status
    kill $pid; wait $pid 2>/dev/null; rm -f "$out"
}

peak_view() {
    local out; out=$(mktemp)
    TERM=xterm-256color script -qfc "$bin --dir $1 list --follow" /dev/null > "$out" 2>&1 &
    local pid=""
    for _ in $(seq 1 100); do pid=$(pgrep -f "^$bin --dir $1 list --follow\$") && break; sleep 0.05; done
    for _ in $(seq 1 1200); do grep -q "item-000001" "$out" 2>/dev/null && break; sleep 0.05; done
    sleep 1
    awk '/VmHWM/{print int($2/1024)}' /proc/$pid/status
    kill $pid; sleep 0.2; rm -f "$out"
}

bench_memory() {
    local store=$dir/store; make_store "$store" "$items"
    local bytes; bytes=$(disk_bytes "$store")
    local target=$(( (3 * bytes) / 1048576 + 30 ))
    local follow=() view=()
    for _ in $(seq 1 "$runs"); do follow+=("$(peak_follow_json "$store")"); view+=("$(peak_view "$store")"); done
    echo "items: $items, on disk: $bytes bytes; target 3 x disk + 30 MiB = $target MiB"
    stats "peak RSS, list --follow --json (MiB)" "${follow[@]}"
    stats "peak RSS, list view (MiB)" "${view[@]}"
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
        rss+=("$(awk '/VmHWM/{print int($2/1024)}' /proc/$pid/status)")
        kill $pid; wait $pid 2>/dev/null; rm -f "$out"
    done
    echo "items: $items, polling every 1 s, idle for 10 s a run"
    stats "idle CPU (% of a core)" "${cpu[@]}"
    stats "peak RSS (MiB)" "${rss[@]}"
}

# `list --json` and `list -o tsv` against reading the files and nothing else (the floor,
# cat over the same files) and jq over them, alternating, wall-clock seconds.
bench_list() {
    local store=$dir/store; make_store "$store" "$items"
    command -v jq >/dev/null || { apt-get install -y -qq jq >/dev/null 2>&1 || true; }
    local json=() tsv=() floor=() jqs=()
    t() { local s; s=$(date +%s.%N); "$@" > /dev/null; python3 -c "print(round($(date +%s.%N)-$s,3))"; }
    for _ in $(seq 1 "$runs"); do
        floor+=("$(t sh -c "find '$store' -name '*.json' -print0 | xargs -0 cat")")
        json+=("$(t "$bin" --dir "$store" list --json)")
        tsv+=("$(t "$bin" --dir "$store" list -o tsv)")
        if command -v jq >/dev/null; then
            jqs+=("$(t sh -c "find '$store' -name '*.json' -print0 | xargs -0 jq -c .")")
        fi
    done
    echo "items: $items, runs: $runs"
    stats "read floor, find | xargs cat (s)" "${floor[@]}"
    stats "jsonstore list --json (s)" "${json[@]}"
    stats "jsonstore list -o tsv (s)" "${tsv[@]}"
    [ ${#jqs[@]} -gt 0 ] && stats "jq -c . over the files (s)" "${jqs[@]}"
    python3 - "${floor[*]}" "${json[*]}" "${tsv[*]}" "${jqs[*]:-}" <<'PY'
import sys
med = lambda s: sorted(map(float, s.split()))[len(s.split()) // 2] if s.split() else None
floor, js, tsv, jq = (med(a) for a in sys.argv[1:5])
print("list --json / floor: %.2fx; list -o tsv / floor: %.2fx" % (js / floor, tsv / floor))
if jq: print("jq / list --json: %.2fx" % (jq / js))
PY
}
