import Foundation
import Glibc
import JSONStore

/// `jsonstore get ID [--json]`
enum GetCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "get", flags: ["--json"], options: [])
        guard args.positionals.count == 1, let id = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "get needs an ID" : "get takes one ID", command: "get")
        }
        try ItemID.validate(id)
        let store = try context.open()
        guard let item = try store.item(id) else {
            Output.error("no item \"\(Display.escaped(id))\" in \(Display.escaped(store.path))")
            return ExitStatus.failure
        }
        if args.has("--json") {
            Output.out(Output.prettyJSON(.object(item.object)))
        } else {
            for member in item.object {
                Output.line("\(Display.escaped(member.key)): \(Table.cell(member.value))")
            }
        }
        return ExitStatus.success
    }
}

/// `jsonstore put ID [FILE|-]`
enum PutCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "put", flags: [], options: [])
        guard (1...2).contains(args.positionals.count) else {
            throw UsageError(args.positionals.isEmpty ? "put needs an ID" : "put takes an ID and one FILE", command: "put")
        }
        let id = args.positionals[0]
        try ItemID.validate(id)
        let source = args.positionals.count == 2 ? args.positionals[1] : "-"
        let name = source == "-" ? "<stdin>" : source
        let bytes = try InputFile.read(source == "-" ? nil : source, limit: JSONReader().maxSize)
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes)
        } catch {
            Output.error("\(Display.escaped(name)):\(error.line):\(error.column): \(Display.escaped(error.reason))")
            return ExitStatus.failure
        }
        guard case .object(let object) = value else {
            Output.error("\(Display.escaped(name)): an item must be a JSON object, not \(value.typeName)")
            return ExitStatus.failure
        }
        let store = try context.open()
        try store.put(id, object)
        return ExitStatus.success
    }
}

/// `jsonstore set ID FIELD=STRING | FIELD:=JSON ...`
enum SetCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "set", flags: [], options: [])
        guard let id = args.positionals.first else { throw UsageError("set needs an ID", command: "set") }
        try ItemID.validate(id)
        let assignments = Array(args.positionals.dropFirst())
        guard !assignments.isEmpty else { throw UsageError("set needs FIELD=STRING or FIELD:=JSON", command: "set") }
        var changes: [(String, JSONValue)] = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw UsageError("'\(Display.escaped(assignment))' is not FIELD=STRING or FIELD:=JSON", command: "set")
            }
            var field = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            let value: JSONValue
            if field.hasSuffix(":") {
                field.removeLast()
                do {
                    value = try JSONReader().read(text)
                } catch {
                    throw UsageError("\(Display.escaped(field)):=\(Display.escaped(text)): \(error.reason)", command: "set")
                }
            } else {
                value = .string(text)
            }
            guard !field.isEmpty else { throw UsageError("'\(Display.escaped(assignment))' has no FIELD", command: "set") }
            changes.append((field, value))
        }
        let store = try context.open()
        try store.update(id, orCreate: [:]) { object in
            for (field, value) in changes { object[field] = value }
        }
        return ExitStatus.success
    }
}

/// `jsonstore delete ID...`
enum DeleteCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "delete", flags: [], options: [])
        guard !args.positionals.isEmpty else { throw UsageError("delete needs at least one ID", command: "delete") }
        try CommandLineTool.validate(args.positionals)
        let store = try context.open()
        var status = ExitStatus.success
        for id in args.positionals where try !store.delete(id) {
            Output.error("no item \"\(Display.escaped(id))\" in \(Display.escaped(store.path))")
            status = ExitStatus.failure
        }
        return status
    }
}

/// `jsonstore check`
enum CheckCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "check", flags: [], options: [])
        guard args.positionals.isEmpty else { throw UsageError("check takes no arguments", command: "check") }
        let contents = try context.open().load()
        for invalid in contents.invalid { Output.line(invalid.error.description) }
        let files = contents.items.count + contents.invalid.count
        Output.error("\(files) files, \(contents.invalid.count) invalid")
        return contents.invalid.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
