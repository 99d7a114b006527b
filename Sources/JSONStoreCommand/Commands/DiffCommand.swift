import JSONStore

/// `jsonstore diff ID [REV [REV2]] [--patch]`: what changed in an item, by member.
struct DiffCommand: Command {
    static let configuration = CommandConfiguration(
        name: "diff", abstract: "show what changed in an item, by member",
        arguments: "ID [REV [REV2]]",
        discussion: """
            Without REV, shows what the item's last change changed; with REV, what changed \
            from revision REV to now; with REV and REV2, from REV to REV2. A line per member \
            (status: open → done, tags: +urgent), or, with --patch, the RFC 6902 JSON Patch \
            that makes the change.
            """,
        options: [.flag("--patch", help: "print an RFC 6902 JSON Patch instead")],
        positionals: .ids)

    var id: String
    var from: Int?
    var to: Int?
    var patch: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        let words = arguments.positionals
        guard (1...3).contains(words.count) else {
            throw UsageError("diff takes an ID and at most two revisions", command: "diff")
        }
        id = words[0]
        let revisions = words.dropFirst().map { Int($0) }
        guard revisions.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw UsageError("diff's revisions are numbers, as log shows them", command: "diff")
        }
        (from, to) = (revisions.first ?? nil, revisions.dropFirst().first ?? nil)
        patch = arguments.has("--patch")
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let store = try context.open()
        let changes: [MemberChange]
        if let from {
            let before = try store.item(id, at: from) ?? [:]
            let after = try to.map { try store.item(id, at: $0) ?? [:] } ?? store.item(id)?.object
            var now = after ?? [:]
            now.removeValue(forKey: "id")
            changes = MemberChange.between(before, now)
        } else {
            guard let last = try store.history(of: id, limit: 1).first else {
                throw CommandFailure("no history of \(Display.escaped(id))")
            }
            switch last.kind {
            case .modified: changes = last.changes
            case .created: changes = MemberChange.between([:], last.value ?? [:])
            case .deleted: changes = MemberChange.between(last.value ?? [:], [:])
            }
        }
        if patch {
            Output.out(Output.prettyJSON(JSONPatch(forward: changes).json))
        } else {
            Output.lines(changes.map(HistoryWords().member))
        }
    }
}
