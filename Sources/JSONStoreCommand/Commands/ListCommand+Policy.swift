import JSONStore

extension ListCommand {
    /// The delivery policy `--throttle SECONDS` or `--coalesce WINDOW[,CAP]` asks for.
    static func policy(_ arguments: Arguments) throws(UsageError) -> DeliveryPolicy {
        let throttle = try arguments.seconds("--throttle")
        let coalesce = arguments.value("--coalesce")
        if throttle != nil && coalesce != nil {
            throw UsageError("--throttle and --coalesce cannot go together", command: "list")
        }
        if let throttle { return .throttle(interval: throttle) }
        guard let coalesce else { return .everyBatch }
        let parts = coalesce.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.map { Double($0.filter { !$0.isWhitespace }) }
        guard (1...2).contains(parts.count), let window = numbers[0], window > 0, window.isFinite,
            parts.count == 1 || (numbers[1].map { $0 >= window && $0.isFinite } ?? false)
        else {
            throw UsageError(
                "--coalesce takes WINDOW or WINDOW,CAP in seconds, CAP at least WINDOW, not '\(Display.escaped(coalesce))'",
                command: "list")
        }
        return .coalesce(window: window, cap: parts.count == 2 ? numbers[1]! : window * 5)
    }
}
