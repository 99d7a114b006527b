import Foundation
import Glibc
import JSONStore

/// The test worker executable (`Tests/Worker`), run as a real separate process.
public enum HelperProcess {
    /// The directory of the running test binary, where SwiftPM puts the built executables.
    public static var buildDirectory: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }

    /// The worker's path.
    public static var workerPath: String {
        buildDirectory.appendingPathComponent("jsonstore-test-worker").path
    }

    /// Starts the worker with `arguments`; its stdout is a pipe.
    public static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: workerPath)
        process.arguments = arguments
        let output = ChildOutput.pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// The lines `pipe` carries, as they arrive, until it is closed.
    public static func lines(of pipe: Pipe) -> AnySequence<String> {
        let reader = LineReader(pipe)
        return AnySequence(AnyIterator { reader.next() })
    }

    /// Stops `process` with SIGTERM and waits for it, with SIGKILL if it has not exited
    /// within `seconds`: a test never hangs on a process that ignores the signal.
    public static func stop(_ process: Process, within seconds: Double = 10) {
        guard process.isRunning else { return process.waitUntilExit() }
        process.terminate()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs the worker to completion; returns its exit status and stdout.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        PoolGuard.check("running the worker to its end")
        let (process, pipe) = try start(arguments)
        let data = ChildOutput.collect(process, [pipe])[0]
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// What the worker's `rewrite` command writes to item `id` in `round`: big enough that a
/// write takes a while, and fully determined by the round, so a reader can tell a whole
/// file from a torn one.
public func rewriteContent(id: String, round: Int) -> JSONObject {
    let unit = "\(id)-\(round)|"
    return [
        "round": .number(JSONNumber(round)),
        "payload": .string(String(repeating: unit, count: 64 * 1024 / unit.utf8.count)),
    ]
}

/// Runs blocking work (waiting for processes, sleeping between kills) on a thread of its
/// own, so it does not hold one of the few threads that run the tests' async code.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// The built `jsonstore` binary, run as a user would.
public enum JSONStoreBinary {
    /// A run of `jsonstore` that goes on (`list --follow`): its process, and its stdout read
    /// line by line as the lines come. Read it from one thread at a time.
    public final class Running: @unchecked Sendable {
        public let process = Process()
        public let reader: LineReader

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: JSONStoreBinary.path)
            process.arguments = arguments
            let pipe = ChildOutput.pipe()
            process.standardOutput = pipe
            reader = LineReader(pipe)
            try process.run()
        }

        /// Stops it (SIGTERM, then SIGKILL) and waits.
        public func stop() { HelperProcess.stop(process) }

        // On a thread of its own: the last reference often goes on the cooperative pool.
        deinit {
            let process = process
            Thread.detachNewThread { HelperProcess.stop(process) }
        }
    }

    /// Starts `jsonstore arguments…`, its stdout read as it comes.
    public static func start(_ arguments: [String]) throws -> Running { try Running(arguments) }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    public static var path: String {
        HelperProcess.buildDirectory.appendingPathComponent("jsonstore").path
    }

    /// Runs `jsonstore arguments…` with `stdin` as its input, in `directory`.
    public static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        in directory: String? = nil
    ) throws -> Result {
        try run(executable: path, arguments, stdin: stdin, environment: environment, in: directory)
    }

    /// Runs `script` with bash, `$JSONSTORE` naming the built binary: for what only a shell
    /// can hand the command (a pipe fed slowly, `<(…)`, arguments that are not UTF-8).
    public static func shell(
        _ script: String, stdin: String = "", environment: [String: String] = [:]
    ) throws -> Result {
        var environment = environment
        environment["JSONSTORE"] = path
        return try run(
            executable: "/bin/bash", ["-c", script], stdin: stdin, environment: environment,
            in: nil)
    }

    private static func run(
        executable: String, _ arguments: [String], stdin: String,
        environment: [String: String], in directory: String?
    ) throws -> Result {
        PoolGuard.check("running \((executable as NSString).lastPathComponent) to its end")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JSONSTORE_DIR"] = nil
        env["COLUMNS"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let (input, output, error) = (ChildOutput.pipe(), ChildOutput.pipe(), ChildOutput.pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        // A command that fails early never reads its stdin: writing to it must not kill us.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        // Both pipes are read while it runs, so a full pipe cannot stall the child.
        let data = ChildOutput.collect(process, [output, error])
        return Result(
            status: process.terminationStatus, stdout: String(decoding: data[0], as: UTF8.self),
            stderr: String(decoding: data[1], as: UTF8.self))
    }
}

// What a test's task calls: the same runs on a thread of their own (`blocking { }`), so
// that no thread of the cooperative pool waits on the command. In an async context Swift
// picks these; inside `blocking { }` the synchronous ones.
extension JSONStoreBinary {
    /// Runs `jsonstore arguments…` with `stdin` as its input, in `directory`.
    public static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        in directory: String? = nil
    ) async throws -> Result {
        try await blocking {
            try run(arguments, stdin: stdin, environment: environment, in: directory)
        }
    }

    /// Runs `script` with bash, `$JSONSTORE` naming the built binary.
    public static func shell(
        _ script: String, stdin: String = "", environment: [String: String] = [:]
    ) async throws -> Result {
        try await blocking { try shell(script, stdin: stdin, environment: environment) }
    }
}
