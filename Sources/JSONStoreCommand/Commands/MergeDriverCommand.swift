import FoundationEssentials
import JSONStore

/// `jsonstore merge-driver BASE OURS THEIRS [PATH]`: git's merge driver for item files
/// (`%O %A %B %P`), a three-way merge by member (`ItemMerge`).
struct MergeDriverCommand: Command {
    static let configuration = CommandConfiguration(
        name: "merge-driver", abstract: "merge an item file three ways, by member (for git)",
        arguments: "BASE OURS THEIRS [PATH]",
        discussion: """
            A merge driver for git: in .gitattributes, *.json merge=jsonstore, and git config \
            merge.jsonstore.driver "jsonstore merge-driver %O %A %B %P". Merges by member, \
            recursively into objects: both sides' changes to different members are kept, \
            and the merged item is written to OURS (pretty, in the member order of ours), \
            exit 0. Members both sides changed differently are a conflict: OURS is written \
            with git's conflict markers around each of them, exit 1, and git reports it. A \
            side that is not a JSON object leaves OURS as it was, exit 1.
            """,
        globals: [])

    var base: String
    var ours: String
    var theirs: String
    var name: String?

    init(_ arguments: Arguments) throws(UsageError) {
        let paths = arguments.positionals
        guard (3...4).contains(paths.count) else {
            throw UsageError("merge-driver takes BASE OURS THEIRS [PATH]", command: "merge-driver")
        }
        (base, ours, theirs) = (paths[0], paths[1], paths[2])
        name = paths.count == 4 ? paths[3] : nil
    }

    func run(_ context: Context) throws {
        let shown = Display.escaped(name ?? ours)
        var objects: [JSONObject] = []
        for (path, side) in [(base, "base"), (ours, "ours"), (theirs, "theirs")] {
            let bytes = try InputFile.read(path, limit: 16 << 20)
            // git gives an empty base when both sides added the file.
            if side == "base" && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }) {
                objects.append(JSONObject())
                continue
            }
            do {
                guard case .object(let object) = try JSONReader().read(bytes) else {
                    throw CommandFailure("\(shown): \(side) is not a JSON object; not merged")
                }
                objects.append(object)
            } catch let error as JSONSyntaxError {
                throw CommandFailure(
                    "\(shown): \(side) is not valid JSON (\(error.line):\(error.column): \(Display.escaped(error.reason))); not merged"
                )
            }
        }
        let (merged, conflicts) = ItemMerge.merge(
            base: objects[0], ours: objects[1], theirs: objects[2])
        let text: [UInt8]
        if conflicts.isEmpty {
            text = JSONWriter.pretty(.object(merged))
        } else {
            text = Array(
                ItemMerge.marked(
                    merged, theirs: objects[2], conflicts: conflicts, ours: "ours",
                    other: "theirs"
                ).utf8)
        }
        try JSONStore._replaceFile(atPath: ours, with: text)  // ours' mode kept
        for conflict in conflicts {
            let member = conflict.path.map(Display.escaped).joined(separator: ".")
            let describe = { (value: JSONValue?) in
                value.map {
                    Display.escaped(String(decoding: JSONWriter.compact($0), as: UTF8.self))
                }
                    ?? "(removed)"
            }
            Output.error(
                "\(shown): both sides changed \(member): ours \(describe(conflict.ours)), theirs \(describe(conflict.theirs))"
            )
        }
        if !conflicts.isEmpty { throw ExitCode.failure }
    }
}
