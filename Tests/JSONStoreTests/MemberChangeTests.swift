import Testing

@testable import JSONStore

/// The member diff of a modification: paths (JSON Pointer), old and new values, in the
/// order a JSON Patch applies them; and what counts as no change at all.
@Suite("Member-level changes")
struct MemberChangeTests {
    static func object(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONReader().read(text) else {
            throw StoreError(code: .invalidItem, message: "not an object")
        }
        return object
    }

    static func changes(_ old: String, _ new: String) throws -> [String] {
        try MemberChange.between(object(old), object(new)).map(\.description)
    }

    @Test("members added, removed, replaced; nested objects; in the new value's order")
    func objects() throws {
        #expect(
            try Self.changes(
                #"{"title":"a","status":"todo","owner":{"name":"ann","team":"x"}}"#,
                #"{"owner":{"name":"bo","team":"x"},"title":"a","done":true}"#)
                == [
                    #"/owner/name: "ann" -> "bo""#, "/done: (none) -> true",
                    #"/status: "todo" -> (none)"#,
                ])
        // A value of another type is replaced whole, not diffed inside.
        #expect(
            try Self.changes(#"{"o":{"a":1}}"#, #"{"o":[1]}"#) == [#"/o: {"a":1} -> [1]"#])
        #expect(try Self.changes(#"{"a":1,"b":[1,{"c":2}]}"#, #"{"a":1,"b":[1,{"c":2}]}"#).isEmpty)
    }

    @Test("arrays by index: growing adds at the end, shrinking removes from the end, descending")
    func arrays() throws {
        #expect(
            try Self.changes(#"{"tags":["a","b"]}"#, #"{"tags":["a","x","y","z"]}"#) == [
                #"/tags/1: "b" -> "x""#, #"/tags/2: (none) -> "y""#, #"/tags/3: (none) -> "z""#,
            ])
        #expect(
            try Self.changes(#"{"tags":["a","b","c","d"]}"#, #"{"tags":["x"]}"#) == [
                #"/tags/0: "a" -> "x""#, #"/tags/3: "d" -> (none)"#, #"/tags/2: "c" -> (none)"#,
                #"/tags/1: "b" -> (none)"#,
            ])
        #expect(try Self.changes(#"{"m":[[1,2]]}"#, #"{"m":[[1,3]]}"#) == ["/m/0/1: 2 -> 3"])
    }

    @Test("names with / and ~ escaped (RFC 6901), non-ASCII kept; the top-level id never")
    func names() throws {
        #expect(
            try Self.changes(#"{"id":"t","a/b":1,"c~d":1,"é":1}"#, #"{"a/b":2,"c~d":2,"é":2}"#) == [
                "/a~1b: 1 -> 2", "/c~0d: 1 -> 2", "/é: 1 -> 2",
            ])
        #expect(try Self.changes(#"{"o":{"id":1}}"#, #"{"o":{"id":2}}"#) == ["/o/id: 1 -> 2"])
    }

    @Test("the same keys in their order or in another: the same changes; the top-level id never")
    func keyOrder() throws {
        let old = #"{"id":"t","a/b":1,"o":{"x":1,"y":[1]},"s":"same"}"#
        // Side by side: only the members that changed, their paths escaped.
        #expect(
            try Self.changes(old, #"{"id":"u","a/b":2,"o":{"x":1,"y":[2]},"s":"same"}"#) == [
                "/a~1b: 1 -> 2", "/o/y/0: 1 -> 2",
            ])
        // Reordered, at the top and inside: by key, in the new value's order.
        #expect(
            try Self.changes(old, #"{"s":"same","o":{"y":[2],"x":1},"a/b":2,"id":"u"}"#) == [
                "/o/y/0: 1 -> 2", "/a~1b: 1 -> 2",
            ])
        // A member added after the others; the same start, then another order.
        #expect(
            try Self.changes(#"{"a":1,"b":2}"#, #"{"a":1,"b":3,"c":4}"#) == [
                "/b: 2 -> 3", "/c: (none) -> 4",
            ])
        #expect(
            try Self.changes(#"{"a":1,"b":2,"c":3}"#, #"{"a":0,"c":3,"d":5}"#) == [
                "/a: 1 -> 0", "/d: (none) -> 5", "/b: 2 -> (none)",
            ])
        // A key renamed in place is one removed and one added.
        #expect(
            try Self.changes(#"{"a":1,"b":2}"#, #"{"a":1,"c":2}"#) == [
                "/c: (none) -> 2", "/b: 2 -> (none)",
            ])
    }

    @Test("changed(_:) by name, dotted path or pointer; inside or around the change")
    func changed() throws {
        let modification = ChangeSet<Item>.Modification(
            old: Item(id: "t", object: [:], fingerprint: Fingerprint([UInt8]())),
            new: Item(id: "t", object: [:], fingerprint: Fingerprint([UInt8]())),
            changes: MemberChange.between(
                try Self.object(#"{"status":"todo","owner":{"name":"ann"},"tags":["a"]}"#),
                try Self.object(#"{"status":"todo","owner":{"name":"bo"},"tags":["a","b"]}"#)))
        #expect(modification.changed("owner"))
        #expect(modification.changed("owner.name"))
        #expect(modification.changed("/tags/1") && modification.changed("tags"))
        #expect(!modification.changed("status") && !modification.changed("/tags/0"))
        #expect(!modification.changed("own"))  // a prefix of a name is not the name
        // The value holding a member replaced: changed only if the member itself did.
        let added = ChangeSet<Item>.Modification(
            old: modification.old, new: modification.new,
            changes: MemberChange.between(
                try Self.object(#"{"n":1}"#), try Self.object(#"{"n":1,"owner":{"team":"x"}}"#)))
        #expect(added.changed("owner") && !added.changed("owner.name"))
        #expect(added.changed("/owner/team"))
    }

    @Test("a rewrite with only whitespace changed is no change, as a touch is")
    func whitespace() {
        var reducer = StoreReducer(timing: .init(deletionGrace: 0.05, fallbackDelay: 0.2))
        let compact = Array(#"{"title":"a","n":1}"#.utf8)
        let pretty = Array("{\n  \"title\": \"a\",\n  \"n\": 1\n}\n".utf8)
        let reader = JSONReader()
        reducer.load(
            ["t"], [ItemFile.parse(compact, id: "t", file: "t.json", reader: reader)], badNames: [:]
        )
        _ = reducer.fileRead(
            "t", ItemFile.parse(pretty, id: "t", file: "t.json", reader: reader), at: 1)
        guard case .none = reducer.publish(at: 1) else {
            Issue.record("a whitespace-only rewrite was published")
            return
        }
        let changed = Array(#"{"title":"b","n":1}"#.utf8)
        _ = reducer.fileRead(
            "t", ItemFile.parse(changed, id: "t", file: "t.json", reader: reader), at: 2)
        guard case .publish = reducer.publish(at: 2) else {
            Issue.record("a real change was not published")
            return
        }
    }
}
