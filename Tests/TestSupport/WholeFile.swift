import Foundation
import Glibc

/// Replaces the file at `path` whole: `text` written under a hidden name beside it, then
/// renamed over it, so a reader sees the old text or the new, never part of one (and a
/// store ignores the hidden name meanwhile).
///
/// Foundation's `write(toFile:atomically: true)` does the same through a directory of its
/// own in /tmp, which it leaves there, one for every write.
public func replaceWhole(_ path: String, with text: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).new").path
    try text.write(toFile: temporary, atomically: false, encoding: .utf8)
    guard rename(temporary, path) == 0 else {
        let code = POSIXErrorCode(rawValue: errno) ?? .EIO
        unlink(temporary)
        throw POSIXError(code)
    }
}
