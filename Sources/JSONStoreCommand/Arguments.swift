import JSONStore

/// A command's arguments: flags, options with values, and positionals.
///
/// Options take `--name VALUE` or `--name=VALUE`; `--` ends the options, so an id that
/// starts with `-` can still be given. Anything unknown is a usage error.
struct Arguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments` for `command`, which knows `flags` and `options`.
    init(_ arguments: [String], command: String, flags known: Set<String>, options: Set<String>) throws(UsageError) {
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
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if known.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value", command: command) }
                flags.insert(name)
            } else if options.contains(name) {
                guard let value = inline ?? rest.popFirst() else {
                    throw UsageError("\(name) needs a value", command: command)
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option '\(Display.escaped(argument))' for \(command)", command: command)
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `option`.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value given for `option`, in order.
    func all(_ option: String) -> [String] { values[option] ?? [] }

    /// A number of seconds, positive.
    func seconds(_ option: String, command: String) throws(UsageError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("\(option) takes a number of seconds greater than 0, not '\(Display.escaped(text))'", command: command)
        }
        return seconds
    }
}

