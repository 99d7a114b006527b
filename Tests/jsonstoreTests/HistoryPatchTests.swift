import Foundation
import JSONStore
import TestSupport
import Testing

/// Whether Python's `jsonpatch` is on this machine.
private let hasJSONPatch =
    (try? JSONStoreBinary.shell("python3 -c 'import jsonpatch'").status) == 0

/// `log -o json`'s patches applied by an RFC 6902 implementation nobody here wrote
/// (Python's `jsonpatch`): over random edits of every shape, each entry's `patch` turns the
/// version before it into the one after it, and its `inverse` turns it back.
@Suite(
    "History's patches",
    .enabled(
        if: hasJSONPatch, "python3-jsonpatch is not installed: apt-get install python3-jsonpatch"))
struct HistoryPatchTests {
    @Test("200 random edits: jsonpatch applies each patch forward and each inverse back")
    func randomEdits() async throws {
        let temp = try TemporaryStore()
        var random = SeededRandom(seed: 26)
        var versions: [JSONValue] = []
        var value = JSONValue.object(PatchStreamTests.object(&random, depth: 0))
        try temp.store.put("item", value.objectValue!)
        versions.append(value)
        while versions.count < 201 {
            let next = PatchStreamTests.edited(value, &random)
            guard case .object(let object) = next, next != value else { continue }
            try temp.store.put("item", object)
            // What was written, as the file holds it (no "id").
            let written = try #require(try temp.store.item("item")).object
            value = .object(
                JSONObject(written.filter { $0.key != "id" }.map { ($0.key, $0.value) }))
            versions.append(value)
        }
        let log = try await jsonstore(temp, ["log", "item", "-o", "ndjson"])
        #expect(log.status == 0, "\(log.stderr)")
        let entries = log.stdout.split(separator: "\n").reversed().dropFirst()  // no creation
        #expect(entries.count == 200)
        var input = ""
        for (i, line) in entries.enumerated() {
            var before: [UInt8] = []
            var after: [UInt8] = []
            JSONWriter.appendCompact(versions[i], to: &before)
            JSONWriter.appendCompact(versions[i + 1], to: &after)
            input +=
                "[\(String(decoding: before, as: UTF8.self)), \(line), "
                + "\(String(decoding: after, as: UTF8.self))]\n"
        }
        let script = """
            import json, sys, jsonpatch
            bad = 0
            for line in sys.stdin:
                old, entry, new = json.loads(line)
                if jsonpatch.apply_patch(old, entry["patch"]) != new:
                    bad += 1
                    print("forward:", line.strip(), file=sys.stderr)
                if jsonpatch.apply_patch(new, entry["inverse"]) != old:
                    bad += 1
                    print("inverse:", line.strip(), file=sys.stderr)
            print(bad)
            """
        let lines = input
        let checked = try await blocking {
            try JSONStoreBinary.shell(
                "python3 -c \"$SCRIPT\"", stdin: lines, environment: ["SCRIPT": script])
        }
        #expect(checked.status == 0 && checked.stdout == "0\n", "\(checked.stderr.prefix(2000))")
    }
}
