import JSONStore

/// A command's arguments, parsed against its declared options: flags, option values and
/// positionals. No I/O.
///
/// Options take `--name VALUE` or `--name=VALUE` (`-o VALUE`, `-o=VALUE` for a short
/// name); an option's value may start with `-` (`--sort -priority`). `--` ends the
/// options everywhere, so `get -- --help` reads the item `--help`. An option that is not
/// declared is a usage error, so the parser accepts exactly what the help lists.
struct Arguments {
    /// The command the arguments are for, whose help usage errors point at; `nil` for the
    /// options before any command.
    let command: String?
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]
    /// Every option value in the order given, by canonical name.
    private var given: [(name: String, value: String)] = []
    /// Every declared option by each of its spellings.
    private let declared: [String: OptionDeclaration]

    /// Parses `arguments` for `command`, which knows `options`.
    init(_ arguments: [String], command: String?, options: [OptionDeclaration]) throws(UsageError) {
        self.command = command
        var byName: [String: OptionDeclaration] = [:]
        for option in options {
            for name in option.names { byName[name] = option }
        }
        declared = byName
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positionals += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            let (name, inline) = Self.split(argument)
            guard let option = byName[name] else {
                throw UsageError(
                    "unknown option '\(Display.escaped(argument))' for \(command ?? "jsonstore")",
                    command: command)
            }
            guard option.value != nil else {
                guard inline == nil else {
                    throw UsageError("\(name) takes no value", command: command)
                }
                flags.insert(option.name)
                continue
            }
            guard let value = inline ?? rest.popFirst() else {
                throw UsageError("\(name) needs a value (\(option.value ?? ""))", command: command)
            }
            values[option.name, default: []].append(value)
            given.append((option.name, value))
        }
    }

    /// `--name=value` as its name and value; `--name` as its name alone.
    static func split(_ argument: String) -> (name: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The canonical name of a declared option; asking for an undeclared one is a bug.
    private func canonical(_ name: String) -> String {
        guard let option = declared[name] else {
            preconditionFailure("\(command ?? "jsonstore") does not declare \(name)")
        }
        return option.name
    }

    /// Whether the flag `name` was given.
    func has(_ name: String) -> Bool { flags.contains(canonical(name)) }

    /// The last value given for the option `name`.
    func value(_ name: String) -> String? { values[canonical(name)]?.last }

    /// Every value given for the option `name`, in order.
    func all(_ name: String) -> [String] { values[canonical(name)] ?? [] }

    /// The values of the options `names`, in the order they were given (so the last of
    /// several options that set one thing wins).
    func values(of names: [String]) -> [(name: String, value: String)] {
        let wanted = Set(names.map(canonical))
        return given.filter { wanted.contains($0.name) }
    }

    /// The value of `name`, one of its declared choices.
    func choice(_ name: String) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        let choices = declared[name]?.choices ?? []
        guard choices.contains(text) else {
            let list = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
            throw UsageError(
                "\(name) takes \(list), not '\(Display.escaped(text))'", command: command)
        }
        return text
    }

    /// A number of seconds, positive.
    func seconds(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError(
                "\(name) takes a number of seconds greater than 0, not '\(Display.escaped(text))'",
                command: command)
        }
        return seconds
    }

    /// A whole number in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(
                "\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(Display.escaped(text))'",
                command: command)
        }
        return n
    }

    /// Throws unless there are no positionals.
    func expectNoPositionals() throws(UsageError) {
        guard let first = positionals.first else { return }
        throw UsageError(
            "\(command ?? "jsonstore") takes no arguments, not '\(Display.escaped(first))'",
            command: command)
    }
}
