/// An exit status with nothing more to say (the output already said it), as
/// swift-argument-parser's `ExitCode`.
struct ExitCode: Error, Equatable {
    let rawValue: Int32

    static let success = ExitCode(rawValue: 0)
    static let failure = ExitCode(rawValue: 1)
    /// BSD `sysexits.h`'s `EX_USAGE`.
    static let usage = ExitCode(rawValue: 64)
}
