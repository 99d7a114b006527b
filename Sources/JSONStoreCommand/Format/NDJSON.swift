import Dispatch
import FoundationEssentials
import JSONStore

/// The NDJSON stream of `list --follow --json`: one JSON object per event, one per line.
enum NDJSON {
    static func line(_ object: JSONObject) -> String {
        String(
            decoding: JSONWriter.compact(.object(object), escapingUnicodeLineBreaks: true),
            as: UTF8.self) + "\n"
    }

    static func items<S: Sequence>(_ items: S) -> JSONValue where S.Element == Item {
        .array(items.map { .object($0.object) })
    }

    /// How the stream names an invalid entry: a directory's file name (`b.json`) by
    /// default; on etcd, `JSONStore._entryName` gives its key (`tasks/b`).
    typealias Naming = (InvalidFile) -> String

    static func invalid(_ files: [InvalidFile], naming: Naming = \.name) -> JSONValue {
        .array(
            files.map { file in
                var object: JSONObject = [
                    "id": file.id.map(JSONValue.string) ?? .null, "file": .string(naming(file)),
                ]
                if let line = file.error.line { object["line"] = .number(JSONNumber(line)) }
                if let column = file.error.column { object["column"] = .number(JSONNumber(column)) }
                object["message"] = .string(file.error.message)
                if file.error.code == .schemaViolation {
                    object["schema"] = .array(file.error.violations.map(SchemaWords.json))
                }
                return .object(object)
            })
    }

    /// Conflicts as the stream shows them: the item, the file keeping the other version,
    /// and where it came from.
    static func conflicts(_ conflicts: [Conflict]) -> JSONValue {
        .array(
            conflicts.map {
                ["id": .string($0.id), "file": .string($0.name), "origin": .string($0.origin)]
            })
    }

    /// The event of `change`; an error carries `revision`, that of the last results.
    static func event(
        _ change: StoreChange<Item>, revision: StoreRevision? = nil, naming: Naming = \.name
    ) -> String {
        switch change {
        case .initial(let results):
            var bytes: [UInt8] = []
            var out = OutputBuffer { bytes += $0 }
            writeInitial(results, naming: naming, to: &out)
            out.flush()
            return String(decoding: bytes, as: UTF8.self)
        case .update(let results, let changes):
            let ints = { (values: [Int]) in JSONValue.array(values.map { .number(JSONNumber($0)) })
            }
            return line([
                "event": "update", "revision": .string(results.revision.token),
                "version": .number(JSONNumber(results.version)),
                "deletions": ints(changes.deletions), "insertions": ints(changes.insertions),
                "modifications": ints(changes.modifications),
                "modificationsNew": ints(changes.modificationsNew),
                "moves": .array(
                    changes.moves.map {
                        ["from": .number(JSONNumber($0.from)), "to": .number(JSONNumber($0.to))]
                    }),
                // Stream readers have no snapshot: `inserted` is the items at the
                // `insertions` indices (moved ones too), enough to rebuild the list.
                "deleted": items(changes.deleted),
                "inserted": items(changes.insertions.map { results[$0] }),
                "modified": items(changes.modified.map(\.new)),
                // One RFC 6902 patch per entry of "modified": its previous value into its new.
                "patches": .array(changes.modified.map { patch($0.changes) }),
                "invalid": invalid(changes.invalid, naming: naming),
                "resolved": .array(changes.resolved.map(JSONValue.string)),
                "conflicts": conflicts(changes.conflicts),
                "resolvedConflicts": conflicts(changes.resolvedConflicts),
            ])
        case .error(let error):
            var object: JSONObject = ["event": "error"]
            if let revision { object["revision"] = .string(revision.token) }
            object["message"] = .string(error.description)
            return line(object)
        }
    }

    /// The RFC 6902 JSON Patch that makes `changes`, in their order (`add`, `remove`,
    /// `replace`; arrays by index).
    static func patch(_ changes: [MemberChange]) -> JSONValue {
        .array(
            changes.map { change in
                var operation: JSONObject = [
                    "op": .string(change.operation), "path": .string(change.path),
                ]
                if let value = change.new { operation["value"] = value }
                return .object(operation)
            })
    }

    /// `{"event":"resumed","revision":…}`: the stream goes on from `revision`.
    static func resumed(_ revision: StoreRevision) -> String {
        line(["event": "resumed", "revision": .string(revision.token)])
    }

    /// `{"event":"reset","revision":…,"reason":…}`: the revision asked for could not be
    /// resumed from; a fresh initial event follows, at `revision`.
    static func reset(_ reason: String, revision: StoreRevision) -> String {
        line(["event": "reset", "revision": .string(revision.token), "reason": .string(reason)])
    }

    /// `{"event":"bookmark","revision":…}`: nothing changed; a token to resume from.
    static func bookmark(_ revision: StoreRevision) -> String {
        line(["event": "bookmark", "revision": .string(revision.token)])
    }

    /// Writes the initial event to `out`: the items of a large store are never built as
    /// one string. Above `parallelAbove` items, runs of them are written on every core, a
    /// few runs at a time, and handed on in order.
    static func writeInitial(
        _ results: Results<Item>, naming: Naming = \.name, to out: inout OutputBuffer,
        parallelAbove threshold: Int = 16_384
    ) {
        out.append {
            $0.append(
                contentsOf:
                    #"{"event":"initial","revision":"#.utf8
                    + JSONWriter.compact(.string(results.revision.token))
                    + #","version":\#(results.version),"items":["#.utf8)
        }
        if results.count > threshold {
            writeItemsInRuns(results, to: &out)
        } else {
            var first = true
            results.forEachItem { item in
                out.append { bytes in
                    if !first { bytes.append(UInt8(ascii: ",")) }
                    JSONWriter.appendItem(item, to: &bytes, escapingUnicodeLineBreaks: true)
                }
                first = false
            }
        }
        out.append { bytes in
            bytes.append(contentsOf: #"],"invalid":"#.utf8)
            JSONWriter.appendCompact(
                invalid(results.invalid, naming: naming), to: &bytes,
                escapingUnicodeLineBreaks: true)
            bytes.append(contentsOf: #","conflicts":"#.utf8)
            JSONWriter.appendCompact(
                conflicts(results.conflicts), to: &bytes, escapingUnicodeLineBreaks: true)
            bytes.append(contentsOf: "}\n".utf8)
        }
    }

    static func status(_ state: StoreState, revision: StoreRevision? = nil) -> String {
        var object: JSONObject = ["event": "status"]
        if let revision { object["revision"] = .string(revision.token) }
        object["state"] = .string(state.name)
        switch state {
        case .resyncing(let reason), .held(let reason): object["reason"] = .string(reason)
        case .failed(let error): object["reason"] = .string(error.description)
        case .loading(let done, let total):
            object["done"] = .number(JSONNumber(done))
            object["total"] = .number(JSONNumber(total))
        case .live: break
        }
        return line(object)
    }

    /// The items of `results`, comma-separated, written in runs of `runLength` on every
    /// core: twice as many runs as cores at a time, so a few megabytes are held at most.
    private static func writeItemsInRuns(_ results: Results<Item>, to out: inout OutputBuffer) {
        writeInRuns(count: results.count, to: &out) { run, bytes in
            var first = run.lowerBound == 0
            results.forEachItemText(in: run) { id, text in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                JSONWriter.appendItem(
                    id: id, text: text, to: &bytes, escapingUnicodeLineBreaks: true)
            }
        }
    }

    /// Items `0..<count`, each run of `runLength` of them appended by `render`, written
    /// on every core: twice as many runs as cores at a time, handed to `out` in order
    /// without a copy while the next runs are written, so a few megabytes are held at most
    /// and the cores do not wait for the output.
    static func writeInRuns(
        count: Int, runLength: Int = 2048, to out: inout OutputBuffer,
        _ render: @escaping @Sendable (_ run: Range<Int>, _ bytes: inout [UInt8]) -> Void
    ) {
        let runs = (count + runLength - 1) / runLength
        var next = 0
        var done: Slots<[UInt8]>?
        // The buffers of runs written, emptied, for the next runs: their pages stay, so a
        // run does not grow a buffer of its own from nothing (fresh pages faulting in).
        var spare: [[UInt8]] = []
        while next < runs || done != nil {
            let batch = next..<min(runs, next + 2 * Cores.count)
            let written = Slots<[UInt8]>(count: batch.count, initial: [])
            for k in 0..<batch.count { written[k] = spare.popLast() ?? [] }
            let renderBatch: @Sendable () -> Void = {
                DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                    let run = batch.lowerBound + k
                    var bytes = written[k]
                    written[k] = []  // the buffer's one owner while it is written to
                    render(run * runLength..<min(count, (run + 1) * runLength), &bytes)
                    written[k] = bytes
                }
            }
            let rendering = DispatchGroup()
            if done == nil {
                renderBatch()  // nothing to hand on meanwhile (a listing's chunk is one batch)
            } else if !batch.isEmpty {
                DispatchQueue.global().async(group: rendering, execute: renderBatch)
            }
            if let done {
                for k in 0..<done.count {
                    out.hand(done[k])
                    var bytes = done[k]
                    done[k] = []
                    bytes.removeAll(keepingCapacity: true)
                    spare.append(bytes)
                }
            }
            rendering.wait()
            done = batch.isEmpty ? nil : written
            next = batch.upperBound
        }
    }
}
