import Foundation
import Glibc
import JSONStore

/// A real etcd, started on free loopback ports with a temporary data directory, and
/// stopped (and its directory removed) when the value goes away: never a mock of it.
public final class EtcdServer: @unchecked Sendable {
    /// Why etcd tests are skipped on a machine without it, and how to get it.
    public static let installHint = "etcd is not installed: apt-get install etcd-server etcd-client"

    /// Whether `etcd` and `etcdctl` are on this machine.
    public static var isInstalled: Bool {
        ["etcd", "etcdctl"].allSatisfy { name in
            ["/usr/bin/", "/usr/local/bin/", "/bin/"].contains {
                FileManager.default.isExecutableFile(atPath: $0 + name)
            }
        }
    }

    public private(set) var clientPort: UInt16 = 0
    public private(set) var peerPort: UInt16 = 0
    public private(set) var dataDirectory = ""
    /// The certificates it serves TLS with, requiring a client certificate; `nil` for
    /// plain HTTP.
    public let certificates: TestCertificates?
    /// More of etcd's options (`--enable-grpc-gateway=false`).
    public let extraArguments: [String]
    // Guarded by being used from one test at a time (the process is started and stopped
    // by its owner); Process itself is thread-safe for terminate and waitUntilExit.
    private var process: Process?

    /// etcd's options every test's etcd takes, from `$JSONSTORE_TEST_ETCD_ARGUMENTS`
    /// (separated by spaces).
    public static var environmentArguments: [String] {
        (ProcessInfo.processInfo.environment["JSONSTORE_TEST_ETCD_ARGUMENTS"] ?? "")
            .split(separator: " ").map(String.init)
    }

    /// Whether it serves the JSON gateway beside gRPC (etcd's default).
    public var servesGateway: Bool { !extraArguments.contains("--enable-grpc-gateway=false") }

    /// Its process's id while it runs.
    public var processIdentifier: pid_t? { process?.processIdentifier }

    /// The client endpoint, `127.0.0.1:PORT`.
    public var endpoint: String { "127.0.0.1:\(clientPort)" }

    /// Starts a single-member etcd and waits until it answers (30 s at most); with
    /// `certificates`, it serves TLS only and requires a client certificate; with
    /// `arguments`, etcd's options beside those, else those of
    /// `$JSONSTORE_TEST_ETCD_ARGUMENTS` (`.ci/run` runs the etcd tests again with
    /// `--enable-grpc-gateway=false`).
    public init(certificates: TestCertificates? = nil, arguments: [String]? = nil) throws {
        self.certificates = certificates
        extraArguments = arguments ?? Self.environmentArguments
        // A free port is free when asked, not when etcd binds it: another test's server
        // (the suite runs in parallel) may take it between, and etcd exits. Fresh ports
        // then, three times at most.
        for attempt in 1...3 {
            clientPort = try Self.freePort()
            var peer = try Self.freePort()
            while peer == clientPort { peer = try Self.freePort() }  // handed out again
            peerPort = peer
            dataDirectory =
                URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                    "jsonstore-etcd-\(getpid())-\(clientPort)"
                ).path
            do {
                try start()
                return
            } catch {
                ServerReaper.remove(dataDirectory)
                if attempt == 3 { throw error }
            }
        }
    }

    deinit {
        // On a thread of its own: the last reference often goes on a thread of the
        // cooperative pool (the end of a test's task), and etcd takes a while to stop.
        let (process, directory) = (process, dataDirectory)
        Thread.detachNewThread {
            if let process { Self.stop(process, signal: SIGTERM) }
            ServerReaper.remove(directory)
        }
    }

    /// Starts (or starts again, on the same data) the server, waiting until it answers.
    public func start() throws {
        PoolGuard.check("starting etcd")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/etcd")
        let client = "\(certificates == nil ? "http" : "https")://127.0.0.1:\(clientPort)"
        let peer = "http://127.0.0.1:\(peerPort)"
        process.arguments =
            [
                "--name", "n1", "--data-dir", dataDirectory, "--listen-client-urls", client,
                "--advertise-client-urls", client, "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer, "--initial-cluster", "n1=\(peer)",
                "--log-level", "error",
            ] + extraArguments
        if let certificates {
            process.arguments! += [
                "--cert-file", certificates.serverCertificate, "--key-file", certificates.serverKey,
                "--trusted-ca-file", certificates.ca, "--client-cert-auth",
            ]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        ServerReaper.started(process, directory: dataDirectory)
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try etcdctl(["endpoint", "health"]).status == 0 {
                // The answer may have come from another test's listener that took the port
                // first (then this etcd exits): it counts when this etcd holds the port.
                if Loopback.listens(process.processIdentifier, on: clientPort) { return }
                break
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw EtcdServerError(message: "etcd on port \(clientPort) did not become healthy")
    }

    /// Stops the server with `signal` and waits for it.
    public func stop(signal: Int32 = SIGTERM) {
        PoolGuard.check("stopping etcd")
        guard let process else { return }
        Self.stop(process, signal: signal)
        self.process = nil
    }

    /// Stops an etcd's `process` with `signal` and waits for it (SIGKILL after 10 s).
    static func stop(_ process: Process, signal: Int32) {
        defer { ServerReaper.stopped(process) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `etcdctl` against this server (a client nobody here wrote).
    @discardableResult
    public func etcdctl(_ arguments: [String], stdin: String = "") throws -> (
        status: Int32, output: String
    ) {
        guard let certificates else {
            return try Self.etcdctl(arguments, endpoints: [endpoint], stdin: stdin)
        }
        let tls = [
            "--cacert", certificates.ca, "--cert", certificates.clientCertificate, "--key",
            certificates.clientKey,
        ]
        return try Self.etcdctl(tls + arguments, endpoints: ["https://" + endpoint], stdin: stdin)
    }

    /// Runs `etcdctl` against `endpoints`.
    public static func etcdctl(_ arguments: [String], endpoints: [String], stdin: String = "")
        throws -> (status: Int32, output: String)
    {
        PoolGuard.check("running etcdctl to its end")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/etcdctl")
        process.arguments =
            ["--endpoints", endpoints.joined(separator: ","), "--dial-timeout", "2s"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ETCDCTL_API"] = "3"
        process.environment = environment
        let (input, output) = (ChildOutput.pipe(), ChildOutput.pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let data = ChildOutput.collect(process, [output])[0]
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A loopback port nobody listens on now: the kernel's choice for port 0.
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Errno(rawValue: errno) }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// etcd could not be started.
public struct EtcdServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
