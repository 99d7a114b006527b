import Foundation
import Glibc
import JSONStore

/// Two directories mirrored through one real etcd, as two machines would be: each side a
/// `jsonstore mirror` process of the built binary, its stderr kept in a log.
public final class MirrorPair: @unchecked Sendable {  // used by one test at a time
    public let server: EtcdServer
    public let root: String
    public let prefix: String
    private var mirrors: [String: Process] = [:]

    /// The etcd address both mirror.
    public var address: String { "etcd://\(server.endpoint)/\(prefix)" }

    /// A fresh etcd and a temporary folder holding the sides `a` and `b` (not created).
    public init(prefix: String = "tasks") throws {
        server = try EtcdServer()
        self.prefix = prefix
        root = try TemporaryStore.makeDirectory(named: "jsonstore-mirror")
    }

    deinit {
        for process in mirrors.values where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The directory of `side`.
    public func path(_ side: String) -> String { root + "/" + side }

    /// The file `name` of `side`.
    public func file(_ side: String, _ name: String) -> String { path(side) + "/" + name }

    /// Starts the mirror of `side` (creating its directory if needed); `name` (the side's by
    /// default) names the process and its log, so a second mirror of one side can be
    /// started beside the first. With `killedAt` (a `FaultPoint`'s name and which time),
    /// the mirror is the test worker's, which kills itself there. With `via` (an endpoint,
    /// `host:port`: a `CuttingProxy`'s), the mirror reaches etcd there.
    public func start(
        _ side: String, as name: String? = nil, killedAt: (point: String, time: Int)? = nil,
        via endpoint: String? = nil
    ) throws {
        let address = endpoint.map { "etcd://\($0)/\(prefix)" } ?? self.address
        let name = name ?? side
        precondition(mirrors[name]?.isRunning != true, "the mirror \(name) runs already")
        try FileManager.default.createDirectory(
            atPath: path(side), withIntermediateDirectories: true)
        let log = root + "/\(name).log"
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        handle.seekToEndOfFile()
        let process = Process()
        if let killedAt {
            process.executableURL = URL(fileURLWithPath: HelperProcess.workerPath)
            process.arguments = [
                "fault", killedAt.point, String(killedAt.time), "mirror", path(side), address,
            ]
        } else {
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = ["--dir", path(side), "mirror", address]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = handle
        try process.run()
        try? handle.close()
        mirrors[name] = process
    }

    /// The process id of the mirror `name`, while it runs.
    public func pid(_ name: String) -> Int32? {
        mirrors[name].flatMap { $0.isRunning ? $0.processIdentifier : nil }
    }

    /// The exit status of the mirror `name` if it exits within `seconds` (it is forgotten
    /// then); `nil` if it still runs.
    public func exitStatus(_ name: String, within seconds: Double = 20) -> Int32? {
        guard let process = mirrors[name] else { return nil }
        guard wait(seconds, until: { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        mirrors[name] = nil
        return process.terminationStatus
    }

    /// Stops the mirror of `side` with `signal` (SIGTERM: it exits 0) and waits; returns
    /// its exit status, or the signal that ended it.
    @discardableResult
    public func stop(_ side: String, signal: Int32 = SIGTERM) -> Int32 {
        guard let process = mirrors.removeValue(forKey: side) else { return -1 }
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Whether the mirror of `side` was ended by SIGKILL within `seconds` (it killed
    /// itself at a test's kill point); it is forgotten then.
    public func killedItself(_ side: String, within seconds: Double = 20) -> Bool {
        guard let process = mirrors[side] else { return false }
        guard wait(seconds, until: { !process.isRunning }) else { return false }
        process.waitUntilExit()
        mirrors[side] = nil
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// What the mirror of `side` said on stderr so far.
    public func log(_ side: String) -> String {
        (try? String(contentsOfFile: root + "/\(side).log", encoding: .utf8)) ?? ""
    }

    /// The item files of `side` (names ending in `.json`, not hidden, not a conflict's
    /// kept version) with their bytes.
    public func items(_ side: String) -> [String: Data] { Self.itemFiles(in: path(side)) }

    /// The item files of `directory`, as `items` takes them, with their bytes.
    public static func itemFiles(in directory: String) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var items: [String: Data] = [:]
        for name in names
        where name.hasSuffix(".json") && !name.hasPrefix(".")
            && !name.contains(".jsonstore-conflict-")
        {
            items[name] = FileManager.default.contents(atPath: directory + "/" + name)
        }
        return items
    }

    /// The text of the file `name` of `side`, or `nil`.
    public func text(_ side: String, _ name: String) -> String? {
        FileManager.default.contents(atPath: file(side, name)).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Writes `text` to `name` in `side` in place (`O_TRUNC`), as a plain editor would.
    public func write(_ side: String, _ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(side, name)))
    }

    /// Waits until `condition` holds, checking every few milliseconds, for `seconds` at
    /// most; whether it came.
    public func wait(_ seconds: Double = 20, until condition: () -> Bool) -> Bool {
        PoolGuard.check("polling the mirrored directories")
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    /// Waits until both sides hold the same item files, byte for byte, and `condition`
    /// holds of them.
    public func converge(
        _ seconds: Double = 20, where condition: ([String: Data]) -> Bool = { _ in true }
    ) -> Bool {
        wait(seconds) {
            let a = items("a")
            return a == items("b") && condition(a)
        }
    }

    /// Runs `jsonstore --dir SIDE arguments…`.
    public func jsonstore(_ side: String, _ arguments: [String], stdin: String = "") throws
        -> JSONStoreBinary.Result
    {
        try JSONStoreBinary.run(["--dir", path(side)] + arguments, stdin: stdin)
    }

    /// Runs `command` with bash in the directory of `side`.
    @discardableResult
    public func shell(_ side: String, _ command: String) throws -> JSONStoreBinary.Result {
        try JSONStoreBinary.shell("cd '\(path(side))' && \(command)")
    }
}
