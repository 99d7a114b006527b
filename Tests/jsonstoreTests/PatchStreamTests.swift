import Foundation
import JSONStore
import TestSupport
import Testing

/// The stream's `"patches"` applied by an RFC 6902 implementation nobody here wrote
/// (Python's `jsonpatch`): over random edits of every shape, each patch turns the item's
/// previous value into its new one.
/// Whether Python's `jsonpatch` is on this machine.
private let hasJSONPatch =
    (try? JSONStoreBinary.shell("python3 -c 'import jsonpatch'").status) == 0

@Suite(
    "JSON Patches in the stream",
    .enabled(
        if: hasJSONPatch, "python3-jsonpatch is not installed: apt-get install python3-jsonpatch"))
struct PatchStreamTests {
    /// Member names that need escaping or are not ASCII.
    static let names = ["title", "a/b", "c~d", "~1", "é", "日本", "tags", "owner", "n"]

    static func value(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &random) {
        case 0: return .number(JSONNumber(Int.random(in: -5...99, using: &random)))
        case 1: return .string(["x", "y/z", "~", "ü", ""].randomElement(using: &random)!)
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    value(&random, depth: depth + 1)
                })
        default: return .object(object(&random, depth: depth + 1))
        }
    }

    static func object(_ random: inout SeededRandom, depth: Int) -> JSONObject {
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            object[names.randomElement(using: &random)!] = value(&random, depth: depth)
        }
        return object
    }

    /// `value` with one random edit somewhere inside: a member added, removed or replaced,
    /// an array grown or shrunk, or a nested value edited.
    static func edited(_ value: JSONValue, _ random: inout SeededRandom, depth: Int = 0)
        -> JSONValue
    {
        switch value {
        case .object(var object):
            let keys = object.keys
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !keys.isEmpty:
                object[keys.randomElement(using: &random)!] = nil
            case 1 where !keys.isEmpty:
                let key = keys.randomElement(using: &random)!
                object[key] = edited(object[key]!, &random, depth: depth + 1)
            default:
                object[names.randomElement(using: &random)!] = Self.value(&random, depth: depth)
            }
            return .object(object)
        case .array(var array):
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !array.isEmpty:
                array.removeLast(Int.random(in: 1...array.count, using: &random))
            case 1 where !array.isEmpty:
                let i = Int.random(in: 0..<array.count, using: &random)
                array[i] = edited(array[i], &random, depth: depth + 1)
            default:
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    array.append(Self.value(&random, depth: depth))
                }
            }
            return .array(array)
        default:
            return Self.value(&random, depth: depth)
        }
    }

    @Test("300 random edits: every patch applied by jsonpatch gives the new value")
    func randomEdits() async throws {
        let temp = try TemporaryStore()
        var random = SeededRandom(seed: 16)
        var items: [String: JSONObject] = [:]
        for i in 0..<10 {
            items["item-\(i)"] = Self.object(&random, depth: 0)
            try temp.store.put("item-\(i)", items["item-\(i)"]!)
        }
        let running = try JSONStoreBinary.start([
            "--dir", temp.path, "list", "--follow", "--json", "--bookmarks", "0",
        ])
        let mirror = NDJSONMirror()
        let initial = try #require(try await blocking { running.reader.next(within: 20) })
        mirror.apply(initial)
        var triples: [String] = []  // [old, patch, new] per modification
        var edits = 0
        while edits < 300 {
            let id = "item-\(Int.random(in: 0..<10, using: &random))"
            guard case .object(let next) = Self.edited(.object(items[id]!), &random),
                next != items[id]!
            else { continue }
            items[id] = next
            edits += 1
            try temp.store.put(id, next)
            let expected = String(
                decoding: JSONWriter.compact(.object(try #require(try temp.store.item(id)).object)),
                as: UTF8.self)
            // Until the update with this value: each edit is its own update.
            let before = mirror.items
            let line = try await blocking {
                running.reader.next(until: { $0.contains(#""event":"update""#) }, within: 20)
            }
            let update = try JSONValue(parsing: try #require(line))
            mirror.apply(try #require(line))
            let modified = update["modified"]?.arrayValue ?? []
            let patches = update["patches"]?.arrayValue ?? []
            #expect(modified.count == patches.count)
            for (new, patch) in zip(modified, patches) {
                let old = try #require(before.first { $0["id"] == new["id"] })
                triples.append(
                    String(decoding: JSONWriter.compact([old, patch, new]), as: UTF8.self))
            }
            #expect(
                String(decoding: JSONWriter.compact(modified.first ?? .null), as: UTF8.self)
                    == expected)
        }
        #expect(triples.count == 300)
        // An implementation nobody here wrote applies each patch to the previous value.
        let script = """
            import json, sys, jsonpatch
            bad = 0
            for line in sys.stdin:
                old, patch, new = json.loads(line)
                if jsonpatch.apply_patch(old, patch) != new:
                    bad += 1
                    print("mismatch:", line.strip(), file=sys.stderr)
            print(bad)
            """
        let input = triples.joined(separator: "\n") + "\n"
        let checked = try await blocking {
            try JSONStoreBinary.shell(
                "python3 -c \"$SCRIPT\"", stdin: input, environment: ["SCRIPT": script])
        }
        #expect(checked.status == 0 && checked.stdout == "0\n", "\(checked.stderr.prefix(2000))")
    }
}
