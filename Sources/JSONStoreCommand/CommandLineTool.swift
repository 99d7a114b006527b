import Foundation
import Glibc
import JSONStore

/// The `jsonstore` command.
public enum CommandLineTool {
    static let version = "0.1.0"

    /// Runs the command with `arguments` (without the program name) and exits.
    public static func main(_ arguments: [String]) -> Never {
        do {
            exit(try run(arguments))
        } catch {
            exit(report(error))
        }
    }

    /// The options before the command, and the command's own arguments.
    struct Context {
        var directory: String
        var color: ColorChoice
        var environment: [String: String]

        func open() throws -> JSONStore {
            try JSONStore(directory: directory)
        }
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        var context = Context(
            directory: environment["JSONSTORE_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "data",
            color: .auto, environment: environment)
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            rest.removeFirst()
            let (name, inline) = split(first)
            switch name {
            case "--help", "-h":
                Output.out(Help.overview)
                return ExitStatus.success
            case "--version":
                Output.line("jsonstore \(version)")
                return ExitStatus.success
            case "--dir":
                guard let dir = inline ?? rest.popFirst(), !dir.isEmpty else { throw UsageError("--dir needs a directory") }
                context.directory = dir
            case "--color":
                guard let value = inline ?? rest.popFirst() else { throw UsageError("--color needs auto, always or never") }
                context.color = try colorChoice(value)
            default:
                throw UsageError("unknown option '\(Display.escaped(first))'")
            }
        }
        guard let command = rest.popFirst() else { throw UsageError("no command given") }
        let arguments = Array(rest)
        if arguments.contains("--help") || arguments.contains("-h") {
            guard let text = Help.commands[command] else { throw UsageError("unknown command '\(Display.escaped(command))'") }
            Output.out(text)
            return ExitStatus.success
        }
        switch command {
        case "list": return try ListCommand.run(arguments, context)
        case "get": return try GetCommand.run(arguments, context)
        case "put": return try PutCommand.run(arguments, context)
        case "set": return try SetCommand.run(arguments, context)
        case "delete": return try DeleteCommand.run(arguments, context)
        case "check": return try CheckCommand.run(arguments, context)
        case "demo": return try DemoCommand.run(arguments, context)
        case "help":
            guard let topic = arguments.first else {
                Output.out(Help.overview)
                return ExitStatus.success
            }
            guard let text = Help.commands[topic] else { throw UsageError("unknown command '\(Display.escaped(topic))'") }
            Output.out(text)
            return ExitStatus.success
        default:
            throw UsageError("unknown command '\(Display.escaped(command))'")
        }
    }

    static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func colorChoice(_ value: String, command: String? = nil) throws(UsageError) -> ColorChoice {
        guard let choice = ColorChoice(rawValue: value) else {
            throw UsageError("--color takes auto, always or never, not '\(Display.escaped(value))'", command: command)
        }
        return choice
    }

    /// Checks every id before anything is touched.
    static func validate(_ ids: [String]) throws {
        for id in ids { try ItemID.validate(id) }
    }
}
