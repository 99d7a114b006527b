import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// `--where`, `--sort` and `--columns` as people type them: parsed, matched and sorted
/// without a store, then through the built binary in `list`, `list --follow` and NDJSON.
@Suite("The query options of list")
struct QueryOptionTests {
    static func item(_ id: String, _ json: String) -> Item {
        var object = try! JSONValue(parsing: json).objectValue!
        object["id"] = .string(id)
        return Item(id: id, object: object, fingerprint: Fingerprint(Array(json.utf8)))
    }

    static let items = [
        item(
            "tea",
            #"{"title": "Make Tea", "priority": 2, "tags": ["home", "kitchen"], "owner": {"name": "Ann"}}"#
        ),
        item(
            "bike",
            #"{"title": "Fix the bike", "priority": 10, "tags": ["home"], "owner": {"name": "Bob"}}"#
        ),
        item(
            "taxes",
            #"{"title": "File taxes", "priority": 3, "done": true, "owners": [{"name": "Cy"}, {"name": "Di"}]}"#
        ),
        item("misc", #"{"title": "Misc", "priority": "high", "tags": [], "note": null}"#),
    ]

    func matching(_ condition: String) throws -> [String] {
        let parsed = try Condition(parsing: condition)
        return Self.items.filter(parsed.matches).map(\.id)
    }

    @Test("operators: = != < <= > >= ~, presence and absence")
    func operators() throws {
        #expect(try matching("title=Make Tea") == ["tea"])
        #expect(try matching("priority=2") == ["tea"])
        #expect(try matching("priority=2.0") == ["tea"], "numbers compare by value")
        #expect(try matching("done=true") == ["taxes"])
        #expect(try matching("note=null") == ["misc"])
        #expect(try matching("priority!=2") == ["bike", "taxes", "misc"])
        #expect(
            try matching("done!=true") == ["tea", "bike", "misc"], "items without the field too")
        #expect(try matching("priority>2") == ["bike", "taxes"], "10 > 2 as numbers, not as text")
        #expect(try matching("priority>=3") == ["bike", "taxes"])
        #expect(try matching("priority<3") == ["tea"])
        #expect(try matching("priority<=10") == ["tea", "bike", "taxes"])
        #expect(try matching("title<G") == ["bike", "taxes"], "strings by bytes")
        #expect(try matching("priority>a") == ["misc"], "a string against text")
        #expect(try matching("title~tea") == ["tea"], "case ignored")
        #expect(try matching("title~I") == ["bike", "taxes", "misc"])
        #expect(try matching("tags") == ["tea", "bike", "misc"])
        #expect(try matching("!tags") == ["taxes"])
        #expect(try matching("note") == ["misc"], "a null member is present")
    }

    @Test("arrays match when any element does; dotted paths reach nested members")
    func arraysAndPaths() throws {
        #expect(try matching("tags=home") == ["tea", "bike"])
        #expect(try matching("tags=kitchen") == ["tea"])
        #expect(try matching("tags!=kitchen") == ["bike", "taxes", "misc"])
        #expect(try matching("tags~KIT") == ["tea"])
        #expect(try matching("owner.name=Bob") == ["bike"])
        #expect(try matching("owner.name>A") == ["tea", "bike"])
        #expect(try matching("owners.name=Di") == ["taxes"], "through an array of objects")
        #expect(try matching("owner.name") == ["tea", "bike"])
        #expect(try matching("!owner.name") == ["taxes", "misc"])
        let dotted = Self.item("d", #"{"a.b": 1, "a": {"b": 2}}"#)
        #expect(FieldPath("a.b").value(in: dotted) == 1, "a member named with a dot wins")
        #expect(FieldPath("id").value(in: dotted) == "d")
    }

    @Test("what --where refuses", arguments: ["", "=x", "!", "!a=b", "a!b", "<3", "!=x"])
    func refused(_ text: String) {
        #expect(throws: UsageError.self) { try Condition(parsing: text) }
    }

    @Test("the operator is the first one: a value may hold operator characters")
    func valueWithOperators() throws {
        let condition = try Condition(parsing: "note=a<b=c")
        #expect(
            condition.field.text == "note" && condition.op == .equal && condition.value == "a<b=c")
        #expect(try Condition(parsing: "p>=-1").value == "-1")
        #expect(try Condition(parsing: "p<=1").op == .lessOrEqual)
    }

    @Test("--sort takes several keys, each ascending or descending, ties by id")
    func sorting() throws {
        let fields = try SortField.parse("-priority,title")
        #expect(
            fields == [
                SortField(field: FieldPath("priority"), descending: true),
                SortField(field: FieldPath("title"), descending: false),
            ])
        #expect(throws: UsageError.self) { try SortField.parse("a,,b") }
        #expect(throws: UsageError.self) { try SortField.parse("-") }
        let same = [
            Self.item("b", #"{"p": 1, "t": "x"}"#), Self.item("a", #"{"p": 1, "t": "x"}"#),
            Self.item("c", #"{"p": 1, "t": "a"}"#), Self.item("d", #"{"p": 5}"#),
            Self.item("e", #"{}"#),
        ]
        let query = SortField.sorted(.all, by: try SortField.parse("-p,t"))
        #expect(query.apply(to: same).map(\.id) == ["d", "c", "a", "b", "e"])
        let nested = SortField.sorted(.all, by: try SortField.parse("-owner.name"))
        #expect(nested.apply(to: Self.items).map(\.id) == ["bike", "tea", "misc", "taxes"])
        #expect(
            SortField.sorted(.all, by: try SortField.parse("priority")).order
                == .field("priority", descending: false))
        #expect(SortField.sorted(.all, by: try SortField.parse("id")).order == .id)
    }

    @Test("an unknown field is a warning naming it and the fields that exist")
    func unknownFields() {
        let warnings = FieldPath.unknown(
            [
                (FieldPath("titel"), "--where"), (FieldPath("owner.name"), "--sort"),
                (FieldPath("id"), "--sort"),
                (FieldPath("colour"), "--columns"),
            ], in: Self.items)
        #expect(
            warnings == [
                "warning: no item has the field 'titel' (--where); the fields are: id, title, priority, tags, owner, done, owners, note",
                "warning: no item has the field 'colour' (--columns); the fields are: id, title, priority, tags, owner, done, owners, note",
            ])
    }

    @Test("the binary: several --where ANDed, --sort with several keys, warnings on stderr")
    func binary() async throws {
        let temp = try sampleStore()
        try temp.writeFile(
            "home.json",
            #"{"title": "Home", "status": "todo", "priority": 3, "tags": ["home", "x"], "owner": {"name": "Ann"}}"#
        )
        var result = try await jsonstore(
            temp,
            [
                "list", "-o", "ids", "--where", "status=todo", "--where", "priority>2", "--sort",
                "-priority,title",
            ])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "taxes\nhome\n", "3 and 3, then by title: File taxes < Home")
        result = try await jsonstore(temp, ["list", "-o", "ids", "--where", "tags=home"])
        #expect(result.stdout == "home\n")
        result = try await jsonstore(
            temp, ["list", "--columns", "owner.name", "--where", "owner.name~an"])
        #expect(result.stdout == "id\towner.name\nhome\tAnn\n")
        result = try await jsonstore(
            temp, ["list", "-o", "ids", "--where", "titel=x", "--sort", "prio"])
        #expect(result.status == 0)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                jsonstore: warning: no item has the field 'titel' (--where); the fields are: id, title, status, priority, tags, owner
                jsonstore: warning: no item has the field 'prio' (--sort); the fields are: id, title, status, priority, tags, owner

                """)
        result = try await jsonstore(temp, ["list", "--where", "a!b"])
        #expect(result.status == 64)
    }

    @Test(
        "list --follow, piped and as NDJSON, filters and sorts the same way and warns the same",
        .timeLimit(.minutes(1)))
    func follow() async throws {
        let temp = try sampleStore()
        let path = temp.path
        for format in ["ids", "json"] {
            let (first, stderr) = try await blocking { () -> (String?, String) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
                process.arguments = [
                    "--dir", path, "list", "--follow", "-o", format, "--where", "priority>=2",
                    "--where", "zzz!=1",
                    "--sort", "-priority,nope",
                ]
                let (out, err) = (Pipe(), Pipe())
                process.standardOutput = out
                process.standardError = err
                try process.run()
                defer { HelperProcess.stop(process) }
                let (reader, errors) = (LineReader(out), LineReader(err))
                let first =
                    format == "json"
                    ? reader.next(within: 20)
                    : [reader.next(within: 20), reader.next(within: 20)].compactMap { $0 }.joined(
                        separator: ",")
                return (first, errors.next(within: 20) ?? "")
            }
            if format == "json" {
                let event = try JSONValue(parsing: first ?? "")
                #expect(
                    event["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                        "taxes", "tea",
                    ])
            } else {
                #expect(first == "taxes,tea")
            }
            #expect(
                stderr.hasPrefix("jsonstore: warning: no item has the field 'zzz' (--where)"),
                "\(format): \(stderr)")
        }
    }
}
