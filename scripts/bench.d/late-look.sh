# A late look: what changed while nothing ran caught up against a journal of every item.
# Sourced by scripts/bench after process.sh (make_store, edit_stopped, seconds_of, stats,
# row).

# A store of ITEMS whose journal records every item (a first `log`, which records each as
# made); then, RUNS times, `edit_stopped`'s edits (1 % rewritten, half at the same size
# with their times put back, 0.5 % deleted, 0.5 % new) caught up by a one-shot `log -n 1`,
# which compares every file with the journal and records each change with its patch from
# what the journal last held. Target: no slower than the first `log`, which read every
# file and recorded every item: a look reads the journal once per 4,096 items it records,
# not once per item (a search each back to the item's creation took hours at a million).
# By turns with each, the same look after a follower ran and wrote its start cache, which
# gives the fingerprints of the files unchanged since (only the changed files are read).
bench_late_look() {
    local store=$dir/store; make_store "$store" "$items"
    local first; first=$(seconds_of 3 timeout 3600 "$bin" --dir "$store" log -n 1)
    local late=() cached=() r patience=$(( 120 + items / 10000 ))
    for r in $(seq 1 "$runs"); do
        rm -f "$store/.jsonstore/start"
        edit_stopped "$store" "$(( 2 * r - 1 ))"
        late+=("$(seconds_of 3 timeout 3600 "$bin" --dir "$store" log -n 1)")
        # In a subshell: its EXIT trap stops the follower, and must not replace the script's.
        ( follow_json_run "$store" "$patience" cached > /dev/null )
        edit_stopped "$store" "$(( 2 * r ))"
        cached+=("$(seconds_of 3 timeout 3600 "$bin" --dir "$store" log -n 1)")
    done
    local journal; journal=$(du -sm "$store/.jsonstore/journal" | cut -f1)
    echo "items: $items; journal at the end: $journal MB"
    echo "first log, every item recorded as made: $first s"
    stats "late look, log -n 1 after each run's edits (s)" "${late[@]}"
    stats "late look after a follower wrote its start cache (s)" "${cached[@]}"
    local m c; m=$(median_of "${late[@]}"); c=$(median_of "${cached[@]}")
    row "late look at 2 % changed, $items items" "$(spread_of "${late[@]}") s" \
        "first log: $first s ($(python3 -c "print(round($m / $first, 2))")x)" "<= 1x" \
        "$(verdict "$m <= $first")"
    row "late look at 2 % changed, $items items, from the start cache" \
        "$(spread_of "${cached[@]}") s" \
        "without: $m s ($(python3 -c "print(round($c / $m, 2))")x)" "-" "-"
}
