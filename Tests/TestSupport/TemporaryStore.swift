import Foundation
import Glibc
import JSONStore

/// A store in a fresh temporary directory, removed when the value goes away.
public final class TemporaryStore: Sendable {
    public let path: String
    public let store: JSONStore

    public init(options: JSONStore.Options = JSONStore.Options()) throws {
        path = try Self.makeDirectory(named: "jsonstore-test")
        store = try JSONStore(directory: path, options: options)
    }

    /// A new directory of the temporary directory, `NAME-XXXXXX` (`mkdtemp`); its path.
    public static func makeDirectory(named name: String) throws -> String {
        var template = Array(
            URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name + "-XXXXXX")
                .path.utf8CString)
        guard let made = mkdtemp(&template) else { throw Errno(rawValue: errno) }
        return String(cString: made)
    }

    /// A store of three tasks, `tea`, `bike` and `taxes`, each with a title, a status and
    /// a priority, pretty-printed as a person would keep them.
    public static func tasks() throws -> TemporaryStore {
        let temp = try TemporaryStore()
        for (id, title, status, priority) in [
            ("tea", "Make tea", "todo", 2), ("bike", "Fix the bike", "done", 1),
            ("taxes", "File taxes", "todo", 3),
        ] {
            try temp.writeFile(
                "\(id).json",
                "{\n  \"title\": \"\(title)\",\n  \"status\": \"\(status)\",\n  \"priority\": \(priority)\n}\n"
            )
        }
        return temp
    }

    // The last reference often goes on the cooperative pool, and removing a store of
    // 20,000 files there held one of its two threads for seconds: the directory is
    // removed on a thread of its own, which the test process waits for as it exits.
    deinit { Removals.remove(path) }

    /// Writes `text` to `name` in the store directory directly, as a person would.
    public func writeFile(_ name: String, _ text: String) throws {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Errno(rawValue: errno) }
            offset += n
        }
    }

    /// The bytes of `name`, or `nil` if it does not exist.
    public func readFile(_ name: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + name).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Every name in the directory, sorted.
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// The names of the item files (`*.json`, not hidden), sorted: the lock file and a
    /// batch's journal are not items.
    public func itemFiles() throws -> [String] {
        try names().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
    }

    /// The status of `name`.
    public func status(_ name: String) -> stat {
        var buf = stat()
        _ = lstat(path + "/" + name, &buf)
        return buf
    }
}
