import Foundation
import JSONStore

// The jsonstore command. This first version reads and writes a store; the live list view
// (`list --follow`) comes with the watcher.

/// A usage error: exit status 64 with a one-line hint.
struct UsageError: Error {
    let message: String
}

let usage = """
    usage: jsonstore [--dir DIR] COMMAND
      list [--json]          print the items (DIR defaults to $JSONSTORE_DIR, then ./data)
      get ID                 print one item as JSON
      put ID [FILE|-]        replace an item with the JSON object in FILE or stdin
      delete ID...           delete items
      check                  validate every file; exit 1 if any is invalid
    """

func printError(_ text: String) {
    FileHandle.standardError.write(Data("jsonstore: \(text)\n".utf8))
}

func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

func run(_ arguments: [String]) throws -> Int32 {
    var arguments = arguments[...]
    var directory = ProcessInfo.processInfo.environment["JSONSTORE_DIR"] ?? "data"
    if arguments.first == "--dir" {
        arguments.removeFirst()
        guard let dir = arguments.popFirst() else { throw UsageError(message: "--dir needs a directory") }
        directory = dir
    }
    guard let command = arguments.popFirst() else { throw UsageError(message: "no command given") }
    if command == "--help" || command == "help" {
        write(usage + "\n")
        return 0
    }
    let store = try JSONStore(directory: directory)
    switch command {
    case "list":
        let json = arguments.contains("--json")
        let contents = try store.load()
        if json {
            let array = JSONValue.array(contents.items.map { .object($0.object) })
            write(String(decoding: JSONWriter.pretty(array), as: UTF8.self))
        } else {
            for item in contents.items {
                let fields = item.object.members.filter { $0.key != "id" }
                    .map { "\($0.key)=\(Display.escaped($0.value.description))" }
                write("\(Display.escaped(item.id))  \(fields.joined(separator: "  "))\n")
            }
        }
        for invalid in contents.invalid { printError(invalid.error.description) }
        if arguments.contains("--follow") {
            printError("following changes live is not available in this version yet")
        }
        return contents.invalid.isEmpty ? 0 : 1
    case "get":
        guard let id = arguments.popFirst() else { throw UsageError(message: "get needs an ID") }
        guard let item = try store.item(id) else {
            printError("no item \"\(Display.escaped(id))\" in \(Display.escaped(directory))")
            return 1
        }
        write(String(decoding: JSONWriter.pretty(.object(item.object)), as: UTF8.self))
        return 0
    case "put":
        guard let id = arguments.popFirst() else { throw UsageError(message: "put needs an ID") }
        let source = arguments.popFirst() ?? "-"
        let data = source == "-" ? FileHandle.standardInput.readDataToEndOfFile()
            : try Data(contentsOf: URL(fileURLWithPath: source))
        let value: JSONValue
        do {
            value = try JSONReader().read(Array(data))
        } catch {
            printError("\(Display.escaped(source == "-" ? "<stdin>" : source)):\(error)")
            return 1
        }
        guard case .object(let object) = value else {
            printError("an item must be a JSON object, got \(value.typeName)")
            return 1
        }
        try store.put(id, object)
        return 0
    case "delete":
        guard !arguments.isEmpty else { throw UsageError(message: "delete needs at least one ID") }
        var status: Int32 = 0
        for id in arguments where try !store.delete(id) {
            printError("no item \"\(Display.escaped(id))\" in \(Display.escaped(directory))")
            status = 1
        }
        return status
    case "check":
        let contents = try store.load()
        for invalid in contents.invalid { write(invalid.error.description + "\n") }
        return contents.invalid.isEmpty ? 0 : 1
    default:
        throw UsageError(message: "unknown command '\(Display.escaped(command))'")
    }
}

do {
    exit(try run(Array(CommandLine.arguments.dropFirst())))
} catch let error as UsageError {
    printError("\(error.message) (see 'jsonstore --help')")
    exit(64)
} catch {
    printError("\(error)")
    exit(1)
}
