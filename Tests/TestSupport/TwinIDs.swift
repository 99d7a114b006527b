/// `café` spelled twice: with a precomposed `é` (U+00E9) and with `e` + U+0301. Equal Swift
/// strings, different bytes: two file names on Linux, two member names by RFC 8259.
public enum TwinIDs {
    public static let composed = "caf\u{E9}"
    public static let decomposed = "cafe\u{301}"

    /// The UTF-8 bytes of each string, so comparisons cannot fall back on `String ==`.
    public static func bytes(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }
}
