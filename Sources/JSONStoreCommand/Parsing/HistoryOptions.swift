import JSONStore

/// The global options that set a directory store's history: `--no-history` (this
/// command keeps none: it neither records nor reads the journal), `--history-max-age AGE`
/// (`90d`, `12h`, `2w`) and `--history-max-bytes SIZE` (`64M`, `1G`, bytes), applied
/// to `JSONStore.Options`. Pruning happens when a segment is begun, by whichever writer
/// begins it, with the limits it was given.
struct HistoryOptions: Equatable {
    var keeps = true
    var maxAge: Double?
    var maxBytes: Int?

    static let declarations: [OptionDeclaration] = [
        .flag("--no-history", help: "keep no history of changes (the journal is left as it is)"),
        .option(
            "--history-max-age", value: "AGE",
            help: "prune history older than AGE: 90d (the default), 12h, 2w"),
        .option(
            "--history-max-bytes", value: "SIZE",
            help: "prune the oldest history beyond SIZE: 64M (the default), 1G, 500K"),
    ]

    /// Takes the options in `arguments`.
    mutating func apply(_ arguments: Arguments) throws(UsageError) {
        if arguments.has("--no-history") { keeps = false }
        if let text = arguments.value("--history-max-age") {
            guard let unit = text.last, let count = Double(text.dropLast()), count > 0,
                let seconds = ["s": 1.0, "m": 60, "h": 3600, "d": 86400, "w": 604800][unit]
            else {
                throw UsageError(
                    "--history-max-age takes an age such as 90d, 12h or 2w, not '\(Display.escaped(text))'",
                    command: nil)
            }
            maxAge = count * seconds
        }
        if let text = arguments.value("--history-max-bytes") {
            let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            let scale = text.last.flatMap { units[$0] }
            let digits = scale == nil ? Substring(text) : text.dropLast()
            guard let count = Int(digits), count > 0,
                count <= Int.max / (scale ?? 1)
            else {
                throw UsageError(
                    "--history-max-bytes takes a size such as 64M, 1G or 500K, not '\(Display.escaped(text))'",
                    command: nil)
            }
            maxBytes = count * (scale ?? 1)
        }
    }

    /// `options` with these applied.
    func applied(to options: JSONStore.Options) -> JSONStore.Options {
        var options = options
        options.keepsHistory = options.keepsHistory && keeps
        if let maxAge { options.historyMaxAge = maxAge }
        if let maxBytes { options.historyMaxBytes = maxBytes }
        return options
    }
}
