import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Text holding every hostile scalar between two printable letters, a colour change and
/// a screen clear; `withoutNUL` for what cannot hold a NUL (a file name, an argument).
func hostileText(withoutNUL: Bool = false) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append("a")
    for scalar in terminalUnsafeScalars where !(withoutNUL && scalar == "\u{0}") {
        scalars.append(scalar)
        scalars.append("b")
    }
    return String(scalars) + "\u{1B}[31mred\u{1B}[2J"
}

/// The hostile scalars in `text`, other than those `allowed` (a line's end, TSV's tab).
func rawControls(in text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [String] {
    text.unicodeScalars.filter { Display.isUnsafe($0) && !allowed.contains($0) }.map {
        "U+" + String($0.value, radix: 16, uppercase: true)
    }
}

/// Text from files and arguments is escaped on every way to the terminal: table rows and
/// headers, `--columns` names, warnings, `check`, `get`, JSON output, the list view.
@Suite("Nothing from a file or an argument reaches the terminal raw")
struct TerminalSafetyTests {
    /// A store whose item has a hostile member name and value, and an invalid file with a
    /// hostile name and a hostile string in its bad JSON.
    func hostileStore() throws -> TemporaryStore {
        let temp = try TemporaryStore()
        let object: JSONObject = [
            "title": .string(hostileText()), .init(hostileText()): .string(hostileText()),
        ]
        try temp.writeFile(
            "evil.json", String(decoding: JSONWriter.pretty(.object(object)), as: UTF8.self))
        try temp.writeFile(
            "bad\(hostileText(withoutNUL: true)).json", "{\"x\": \"\u{1B}[2J\" oops}")
        return temp
    }

    @Test("list as a table, TSV, ids and JSON; its headers; --columns and --where names")
    func listOutputs() async throws {
        let temp = try hostileStore()
        let argument = hostileText(withoutNUL: true)
        let runs: [([String], Set<Unicode.Scalar>)] = [
            (["list", "-o", "table"], ["\n"]),
            (["list", "-o", "table", "--columns", "title," + argument], ["\n"]),
            (["list", "-o", "tsv"], ["\n", "\t"]),
            (["list", "-o", "ids"], ["\n"]),
            (["list", "-o", "json"], ["\n"]),
            (["list", "-o", "ndjson"], ["\n"]),
            (["list", "--where", argument + "=x", "-o", "table"], ["\n"]),
            (["list", "--sort", argument, "-o", "table"], ["\n"]),
        ]
        for (arguments, allowed) in runs {
            let result = try await jsonstore(temp, arguments)
            #expect(rawControls(in: result.stdout, allowing: allowed) == [], "\(arguments)")
            #expect(rawControls(in: result.stderr) == [], "stderr of \(arguments)")
        }
        // The header keeps the escapes visible and upper-cases only the printable text.
        let table = try await jsonstore(temp, ["list", "-o", "table", "--columns", "a\u{1B}[31m"])
        #expect(table.stdout.hasPrefix("ID"))
        #expect(table.stdout.contains("A^[[31M"))
        let warned = try await jsonstore(temp, ["list", "--where", argument + "=x"])
        #expect(warned.stderr.contains("warning: no item has the field"))
    }

    @Test("get, get --json and check")
    func getAndCheck() async throws {
        let temp = try hostileStore()
        for arguments in [["get", "evil"], ["get", "evil", "--json"], ["check"]] {
            let result = try await jsonstore(temp, arguments)
            #expect(rawControls(in: result.stdout) == [], "\(arguments)")
            #expect(rawControls(in: result.stderr) == [], "stderr of \(arguments)")
        }
        let check = try await jsonstore(temp, ["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("bada^Ab^Bb"))
    }

    @Test("the list view: rows, header, column picker, filter, notices and the file view")
    func listView() throws {
        let temp = try hostileStore()
        let store = try JSONStore(directory: temp.path)
        var snapshot = StoreSnapshot()
        var elements: [(UTF8Key, Entry)] = []
        for item in try store.load().items {
            elements.append((UTF8Key(item.id), Entry(item: item, error: nil)))
        }
        snapshot = StoreSnapshot(
            version: 1, entries: SortedTree(sortedDistinct: elements), invalid: [:])
        let results = Results<Item>.initial(.all, snapshot, coder: .items)
        var frames: [Frame] = []
        for columns in [nil, ["title", hostileText(withoutNUL: true)]] {
            var model = liveModel(results, columns: columns, path: hostileText(withoutNUL: true))
            frames.append(model.frame(width: 200, height: 20, now: 1))
            model.tell(
                FieldPath.unknown(
                    [(FieldPath(hostileText(withoutNUL: true)), "--where")], in: results
                ).joined(separator: "; "))
            frames.append(model.frame(width: 200, height: 20, now: 1))
            // The column picker, then a filter typed with the hostile text.
            _ = model.handle(.character("c"), page: 18)
            frames.append(model.frame(width: 200, height: 20, now: 1))
            _ = model.handle(.escape, page: 18)
            _ = model.handle(.character("/"), page: 18)
            for character in hostileText(withoutNUL: true) {
                _ = model.handle(.character(character), page: 18)
            }
            frames.append(model.frame(width: 200, height: 20, now: 1))
        }
        for (n, frame) in frames.enumerated() {
            let text = frame.text.joined(separator: "\n")
            #expect(rawControls(in: text) == [], "frame \(n)")
        }
        // The header row shows the member name's escapes, upper-cased around them.
        #expect(frames[0].text[1].contains("A^@B^AB"))
    }
}
