/// The entries one item's change makes, before the journal numbers them: the change a
/// jsonstore write makes, preceded, when the file was not what the journal last recorded,
/// by a late entry for what happened to it meanwhile.
struct HistoryDraft {
    let id: String
    let source: HistoryEntry.Source
    let operation: String?
    let now: Int64
    /// The first revision of the segment the entries go in: an item's first entry there
    /// keeps its whole value, so pruning older segments never leaves a patch without
    /// the version it applies to.
    var segmentStart = 0
    /// Whether an item the journal has no entry of may have been there before the journal
    /// knew of it (`Journal.mayPredate`): found late, it is where its history begins, not
    /// one created since.
    var mayPredate = false

    /// What the item was before the write, as read under the lock.
    enum Before: Sendable {
        case item(JSONObject, Fingerprint, modified: Int64)
        case invalid
        case missing

        /// Whether a draft from this file asks what the journal recorded (`recorded`),
        /// `head` being the journal's last entry of the item: when the item exists there
        /// and the file is not that version.
        func asksRecorded(_ head: JournalHeads.Head?) -> Bool {
            guard let head, head.exists else { return false }
            if case .item(_, let fingerprint, _) = self { return fingerprint != head.fingerprint }
            return true
        }
    }

    /// The entries for a write that turns `before` into `after` (`nil`: deleted): late ones
    /// for what happened to the item since the journal's `head`, and the write's own.
    ///
    /// - Parameter recorded: the item as the journal last recorded it, asked for only
    ///   when the file is not that version.
    func entries(
        before: Before, after: (object: JSONObject, fingerprint: Fingerprint)?,
        head: JournalHeads.Head?, recorded: () -> JSONObject?
    ) -> (late: [HistoryEntry], own: HistoryEntry?) {
        let (late, state) = late(before: before, head: head, recorded: recorded)
        guard let after else {
            return (late, state.exists ? entry(.deleted, value: state.last, fingerprint: nil) : nil)
        }
        guard state.exists else {
            return (late, entry(.created, value: after.object, fingerprint: after.fingerprint))
        }
        guard let last = state.last else {
            // The journal cannot tell what it was: the whole value, so the next can.
            return (late, entry(.modified, keyframe: after.object, fingerprint: after.fingerprint))
        }
        let keyframe = state.needsWhole(segmentStart) ? after.object : nil
        return (
            late,
            entry(
                .modified, changes: MemberChange.between(last, after.object), keyframe: keyframe,
                fingerprint: after.fingerprint)
        )
    }

    /// Where the journal's record of the item stands once `late` entries are added.
    struct Recorded {
        var exists: Bool
        /// The version as the file holds it (or the journal's last, when the file is broken).
        var last: JSONObject?
        var sinceKeyframe: Int
        /// The revision of the newest entry that kept the whole value (0: not known).
        var wholeAt: Int

        /// Whether the next modification keeps the whole value: after enough patches, or
        /// when the last whole value is in an older segment than `segmentStart`.
        func needsWhole(_ segmentStart: Int) -> Bool {
            sinceKeyframe + 1 >= JournalHeads.keyframeInterval || wholeAt < segmentStart
        }
    }

    /// How a change the journal has not recorded was seen.
    enum Seen {
        /// Found later, by a write or a read (at the file's modification time).
        case late
        /// By a watcher as it happened, made by `source`.
        case live(HistoryEntry.Source)
    }

    /// The entries for a file that is not what the journal last recorded (`head`): a change
    /// another program made, seen `seen`.
    func late(
        before: Before, head: JournalHeads.Head?, recorded: () -> JSONObject?,
        seen: Seen = .late
    ) -> (entries: [HistoryEntry], state: Recorded) {
        var entries: [HistoryEntry] = []
        var state = Recorded(
            exists: head?.exists ?? false, last: nil, sinceKeyframe: head?.sinceKeyframe ?? 0,
            wholeAt: head?.wholeAt ?? 0)
        switch before {
        case .item(let object, let fingerprint, let modified):
            if head == nil && mayPredate {
                if case .live = seen {
                    // Seen changing: a change, of what is not known.
                    entries.append(
                        late(.modified, at: modified, keyframe: object, fingerprint, seen: seen))
                } else {
                    var first = late(.created, at: modified, value: object, fingerprint, seen: seen)
                    first.isBaseline = true
                    entries.append(first)
                }
                (state.sinceKeyframe, state.wholeAt) = (0, .max)  // whole, in this segment
            } else if !state.exists {
                entries.append(late(.created, at: modified, value: object, fingerprint, seen: seen))
                (state.sinceKeyframe, state.wholeAt) = (0, .max)  // whole, in this segment
            } else if head?.fingerprint != fingerprint {
                let last = recorded()
                // Seen live, the whole value is kept as often as for a write; found late, or
                // when what it was is not known, every time.
                var keyframe: JSONObject? = object
                if case .live = seen, last != nil, !state.needsWhole(segmentStart) {
                    keyframe = nil
                }
                let changes = last.map { MemberChange.between($0, object) } ?? []
                entries.append(
                    late(
                        .modified, at: modified, changes: changes, keyframe: keyframe, fingerprint,
                        seen: seen))
                if keyframe == nil {
                    state.sinceKeyframe += 1
                } else {
                    (state.sinceKeyframe, state.wholeAt) = (0, .max)
                }
            }
            (state.exists, state.last) = (true, object)
        case .missing:
            if state.exists {
                entries.append(late(.deleted, at: now, value: recorded(), nil, seen: seen))
                state.exists = false
            }
        case .invalid:
            // A broken file is no version: the journal's last one is what a write changes.
            state.last = state.exists ? recorded() : nil
        }
        return (entries, state)
    }

    private func entry(
        _ kind: HistoryEntry.Kind, changes: [MemberChange] = [], value: JSONObject? = nil,
        keyframe: JSONObject? = nil, fingerprint: Fingerprint?
    ) -> HistoryEntry {
        HistoryEntry(
            revision: 0, timestamp: now, id: id, kind: kind, source: source, operation: operation,
            changes: changes, value: value, isLate: false, fingerprint: fingerprint,
            keyframe: keyframe)
    }

    /// An entry for a change another program made: found late, at `time`, or seen live,
    /// now.
    private func late(
        _ kind: HistoryEntry.Kind, at time: Int64, changes: [MemberChange] = [],
        value: JSONObject? = nil, keyframe: JSONObject? = nil, _ fingerprint: Fingerprint?,
        seen: Seen
    ) -> HistoryEntry {
        var (source, timestamp, isLate) = (HistoryEntry.Source.otherProgram, time, true)
        if case .live(let by) = seen { (source, timestamp, isLate) = (by, now, false) }
        return HistoryEntry(
            revision: 0, timestamp: timestamp, id: id, kind: kind, source: source,
            operation: nil, changes: changes, value: value, isLate: isLate,
            fingerprint: fingerprint, keyframe: keyframe)
    }
}
