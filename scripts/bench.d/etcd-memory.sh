# The memory of a follower of a store on etcd against the same items as files (sourced by
# scripts/bench, after process.sh): issue 29's figure at the memory benchmark's items of
# about 140 bytes, the size issue 28's formula was set at (`etcd-load` measures the live
# benchmark's items of about 310 bytes).

# A free TCP port on the loopback.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# follow_peak_mib STORE-OPTIONS...: the peak RSS (MiB) of `list --follow --json` on the
# store the options name, to its initial event.
follow_peak_mib() {
    local out=$dir/follow-peak.out
    "$bin" "$@" list --follow --json > "$out" &
    local pid=$!
    wait_for '"invalid"' "$out" 300 || { kill "$pid"; return 1; }
    sleep 0.5  # what it does right after the event counts too
    peak_mib "$pid"
    kill "$pid"; wait "$pid" 2>/dev/null || true
}

# The store of `make_store` uploaded to an etcd started here on free loopback ports (by
# `jsonstore mirror`); then, by turns, the follower of the prefix and the follower of the
# directory (its .jsonstore removed: every start a first start).
bench_etcd_memory() {
    local store=$dir/store; make_store "$store" "$items"
    local bytes; bytes=$(disk_bytes "$store")
    local target=$(( (3 * bytes) / 2 / 1048576 + 30 ))
    local client peer; client=$(free_port); peer=$(free_port)
    etcd --name bench --data-dir "$dir/etcd" \
        --listen-client-urls "http://127.0.0.1:$client" \
        --advertise-client-urls "http://127.0.0.1:$client" \
        --listen-peer-urls "http://127.0.0.1:$peer" \
        --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
        --initial-cluster "bench=http://127.0.0.1:$peer" > "$dir/etcd.log" 2>&1 &
    etcd_pid=$!  # not local: the EXIT trap runs after the function has returned
    # Under `set -e`: a command of the trap that fails would be the script's status.
    trap 'kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
    local deadline=$(( $(date +%s) + 30 ))
    until ETCDCTL_API=3 etcdctl --endpoints "127.0.0.1:$client" endpoint health >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || { echo "bench: etcd did not start" >&2; return 1; }
        sleep 0.1
    done
    cp -r "$store" "$dir/upload"
    "$bin" --dir "$dir/upload" mirror "etcd://127.0.0.1:$client/memory" > "$dir/mirror.log" 2>&1 &
    local mirror=$!
    wait_for "in sync" "$dir/mirror.log" 300 || { kill "$mirror"; return 1; }
    kill "$mirror"; wait "$mirror" 2>/dev/null || true
    local etcd_peaks=() dir_peaks=()
    for _ in $(seq 1 "$runs"); do
        etcd_peaks+=("$(follow_peak_mib --store "etcd://127.0.0.1:$client/memory")")
        rm -rf "$store/.jsonstore"
        dir_peaks+=("$(follow_peak_mib --dir "$store")")
    done
    echo "items: $items, on disk: $bytes bytes; issue 28's formula 1.5 x disk + 30 MiB = $target MiB"
    stats "peak RSS, a follower of the prefix on etcd (gRPC), to its initial event (MiB)" "${etcd_peaks[@]}"
    stats "peak RSS, a follower of the same items as files, to its initial event (MiB)" "${dir_peaks[@]}"
    local ratio; ratio=$(python3 -c "print(round($(median_of "${etcd_peaks[@]}") / $(median_of "${dir_peaks[@]}"), 2))")
    echo "etcd follower / directory follower: ${ratio}x"
    row "peak RSS, etcd follower, $items items of ~140 B" "$(spread_of "${etcd_peaks[@]}") MiB" \
        "${ratio}x the directory follower's" "<= $target MiB" \
        "$(verdict "$(median_of "${etcd_peaks[@]}") <= $target")"
}
