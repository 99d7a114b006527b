import Foundation

/// A CA, a server certificate it signed for 127.0.0.1, a client certificate it signed, and
/// a second CA that signed nothing of these: made with the `openssl` command in a
/// temporary directory, removed when the value goes away.
public final class TestCertificates: @unchecked Sendable {
    public let directory: String
    public var ca: String { directory + "/ca.crt" }
    public var serverCertificate: String { directory + "/server.crt" }
    public var serverKey: String { directory + "/server.key" }
    public var clientCertificate: String { directory + "/client.crt" }
    public var clientKey: String { directory + "/client.key" }
    /// A CA that signed neither certificate: trusting only it, the server is not trusted.
    public var otherCA: String { directory + "/other.crt" }

    /// Whether the `openssl` command is on this machine.
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    public init() throws {
        directory = NSTemporaryDirectory() + "/jsonstore-certs-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let script = """
            set -e
            cd '\(directory)'
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$1" 2>/dev/null; }
            key ca.key; key other.key; key server.key; key client.key
            openssl req -x509 -new -key ca.key -out ca.crt -days 2 -subj /CN=jsonstore-test-ca
            openssl req -x509 -new -key other.key -out other.crt -days 2 -subj /CN=someone-else
            openssl req -new -key server.key -out server.csr -subj /CN=localhost
            printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth,clientAuth\\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext 2>/dev/null
            openssl req -new -key client.key -out client.csr -subj /CN=root
            printf 'extendedKeyUsage=clientAuth\\n' > client.ext
            openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2 -extfile client.ext 2>/dev/null
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EtcdServerError(message: "openssl could not make the test certificates")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
