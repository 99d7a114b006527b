import FoundationEssentials
import JSONStore

/// `jsonstore edit ID [--new]`: the item in `$VISUAL` (else `$EDITOR`, else `vi`), on a
/// private copy, put back once it is JSON and obeys the schema, with compare-and-swap
/// against the version opened.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit", abstract: "edit an item in $VISUAL or $EDITOR, checked before it is saved",
        arguments: "ID",
        discussion: """
            Opens a private copy of the item ID in $VISUAL (else $EDITOR, else vi). Once the \
            editor exits, the copy is checked (JSON, then the store's schema) and put back \
            with compare-and-swap against the version opened. On an error, each is printed \
            with its line and column in your copy and you are asked whether to reopen the \
            editor on your text; your text is never lost: if you give up, where it is kept \
            is printed in full. If the item changed meanwhile, the editor opens again with \
            your copy beside the item as it is now (ID.now-in-the-store.json); save yours \
            again to put it. --new creates ID, starting from the members the schema \
            requires. Leaving the copy as it was changes nothing.
            """,
        options: [.flag("--new", help: "create the item, from the schema's required members")],
        positionals: .ids)

    var id: String
    var new: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty ? "edit needs an ID" : "edit takes one ID",
                command: "edit")
        }
        self.id = id
        new = arguments.has("--new")
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let store = try context.open()
        let shownID = Display.escaped(id)
        let (start, opened) = try opening(store)
        var expected = opened
        guard let copy = CopyEdit.privateCopy(named: ItemID.fileName(id), start) else {
            throw CommandFailure("could not make a copy to edit in the temporary directory")
        }
        let (folder, mine) = copy
        let kept = "your text is kept in \(Display.escaped(mine.path))"
        let theirs = folder.appendingPathComponent(id + ".now-in-the-store.json")
        let editor = ExternalEditor.command(environment: context.environment)
        var paths = [mine.path]
        var shown = start
        while true {
            switch ExternalEditor.run(editor, on: paths) {
            case .failure(let error):
                throw CommandFailure(
                    "could not start the editor (\(Display.escaped(editor))): \(error)", kept)
            case .success(let status) where status != 0:
                throw CommandFailure("the editor exited with status \(status)", kept)
            case .success: break
            }
            guard let edited = try? [UInt8](Data(contentsOf: mine)) else {
                throw CommandFailure("could not read your copy back", kept)
            }
            if edited == shown {
                guard paths.count == 1 else {
                    throw CommandFailure(
                        "\(shownID) not saved: it changed meanwhile and your copy was not saved again",
                        kept)
                }
                try? FileManager.default.removeItem(at: folder)
                Output.error(
                    new ? "\(shownID) not created: left as it was" : "\(shownID): no change")
                return
            }
            shown = edited
            var problems: [String] = []
            switch Self.object(edited, id: id, file: mine.path) {
            case .failure(let problem):
                problems = [problem.description]
            case .success(let object):
                let outcome: Put
                switch Self.put(object, id: id, in: store, expecting: expected) {
                case .success(let put): outcome = put
                case .failure(let error):
                    throw CommandFailure(messages: SchemaWords.lines(of: error) + [kept])
                }
                switch outcome {
                case .put:
                    try? FileManager.default.removeItem(at: folder)
                    return
                case .changed(let now):
                    // Changed meanwhile: both side by side, and yours put once saved again.
                    expected = now.map { .etag($0.etag) } ?? .absent
                    _ = FileManager.default.createFile(
                        atPath: theirs.path,
                        contents: Data(now?.bytes ?? Array("(deleted)\n".utf8)),
                        attributes: [.posixPermissions: 0o600])
                    paths = [mine.path, theirs.path]
                    Output.error(
                        "\(shownID) changed meanwhile: reopening with it beside your copy; save yours again to put it"
                    )
                    continue
                case .refused(let violations):
                    problems = StoreSchema.located(violations, in: edited).map {
                        SchemaWords.line($0, file: mine.path)
                    }
                }
            }
            for problem in problems { Output.error(problem) }
            guard Self.ask("reopen the editor on your text? [Y/n] ") else {
                throw CommandFailure("\(shownID) not saved", kept)
            }
        }
    }

    /// What the editor opens first and what the store must still hold when it is put:
    /// the item's value and its etag, or, with `--new`, the schema's template and no item.
    private func opening(_ store: JSONStore) throws -> ([UInt8], ItemExpectation) {
        let stored = try store._storedValue(of: id)
        guard new else {
            guard let stored else {
                throw CommandFailure(CommandFailure.noItem(id, in: store.path))
            }
            return (stored.bytes, .etag(stored.etag))
        }
        guard stored == nil else {
            throw CommandFailure("\(Display.escaped(id)) exists already: edit it without --new")
        }
        let template = ItemTemplate.object(for: store.schemaState().schema)
        return (JSONWriter.pretty(.object(template)), .absent)
    }

    /// What came of putting the edited copy.
    enum Put {
        case put
        /// The item changed since it was opened: what the store holds now.
        case changed((bytes: [UInt8], etag: String)?)
        /// The value breaks the schema in these ways.
        case refused([SchemaViolation])
    }

    /// Puts `object` as the item `id` if the store still holds what was opened.
    static func put(
        _ object: JSONObject, id: String, in store: JSONStore, expecting expected: ItemExpectation
    ) -> Result<Put, StoreError> {
        do {
            try store.put(id, object, expecting: expected)
            return .success(.put)
        } catch  where error.code == .changed {
            do {
                return .success(.changed(try store._storedValue(of: id)))
            } catch {
                return .failure(error)
            }
        } catch  where error.code == .schemaViolation {
            return .success(.refused(error.violations))
        } catch {
            return .failure(error)
        }
    }

    /// `bytes` as the item `id`'s object, or the line saying why not, located in `file`.
    static func object(_ bytes: [UInt8], id: String, file: String) -> Result<JSONObject, Failure> {
        let place = Display.escaped(file)
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes)
        } catch {
            return .failure(
                Failure("\(place):\(error.line):\(error.column): \(Display.escaped(error.reason))"))
        }
        guard case .object(let object) = value else {
            return .failure(Failure("\(place): an item must be a JSON object"))
        }
        if let member = object["id"], member != .string(id) {
            return .failure(
                Failure(
                    "\(place): member \"id\" is \(Display.escaped("\(member)")) but the item's id is \"\(Display.escaped(id))\""
                ))
        }
        return .success(object)
    }

    /// Why a copy cannot be put, in a line safe to print.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Asks `question` on stderr and reads the answer from stdin: yes unless it says no;
    /// no at the end of the input (nobody there to answer).
    static func ask(_ question: String) -> Bool {
        Output.write(fd: 2, "jsonstore: " + question)
        guard let answer = readLine() else {
            Output.write(fd: 2, "\n")
            return false
        }
        return !answer.lowercased().hasPrefix("n")
    }
}
