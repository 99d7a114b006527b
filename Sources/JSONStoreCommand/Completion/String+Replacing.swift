extension String {
    /// This string with every `target` replaced by `replacement` (no Foundation).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
