import Glibc
import JSONStore

/// What a TLS client of etcd (`etcds://`) trusts and presents: etcdctl's `--cacert`,
/// `--cert` and `--key`.
public struct EtcdTLS: Sendable, Equatable {
    /// The CA certificates that sign the server's certificate (PEM); `nil` for the
    /// system's.
    public var caCertificate: String?
    /// The client's certificate (PEM) and its private key, for a server that asks for one.
    public var certificate: String?
    public var key: String?

    public init(caCertificate: String? = nil, certificate: String? = nil, key: String? = nil) {
        self.caCertificate = caCertificate
        self.certificate = certificate
        self.key = key
    }
}

/// An OpenSSL client context made from `EtcdTLS` once, shared by every connection of a
/// store (OpenSSL's contexts are safe to share once set up).
package final class TLSContext: @unchecked Sendable {
    let library: OpenSSL
    let context: OpaquePointer

    init(_ files: EtcdTLS) throws(EtcdError) {
        let library = try OpenSSL.shared.get()
        guard let context = library.contextNew(library.clientMethod()) else {
            throw EtcdError(
                endpoint: "TLS", reason: "cannot make a TLS context: \(library.errors())")
        }
        self.library = library
        self.context = context  // freed by `deinit`, also when the files below are refused
        library.contextSetVerify(context, OpenSSL.verifyPeer, nil)
        _ = library.contextControl(context, OpenSSL.controlMode, OpenSSL.movingWriteBuffer, nil)
        func fail(_ what: String, _ file: String) -> EtcdError {
            EtcdError(endpoint: "TLS", reason: "\(what) \(file): \(library.errors())")
        }
        if let ca = files.caCertificate {
            guard library.contextLoadVerifyLocations(context, ca, nil) == 1 else {
                throw fail("cannot read the CA certificates (--cacert)", ca)
            }
        } else {
            _ = library.contextSetDefaultVerifyPaths(context)
        }
        if let certificate = files.certificate {
            guard library.contextUseCertificateChainFile(context, certificate) == 1 else {
                throw fail("cannot read the certificate (--cert)", certificate)
            }
            let key = files.key ?? certificate
            guard library.contextUsePrivateKeyFile(context, key, OpenSSL.filetypePEM) == 1,
                library.contextCheckPrivateKey(context) == 1
            else { throw fail("cannot use the key (--key)", key) }
        }
    }

    deinit { library.contextFree(context) }
}

/// A TLS session over a TCP socket: the handshake, reads and writes each within a
/// deadline, the server's certificate checked against the host name or address.
///
/// One thread may receive while another sends (an HTTP/2 connection's reader and its
/// callers): OpenSSL's session is not safe to use from two threads at once, so it is
/// reached only under its lock (`session`), each call into it with its error read; the
/// waits for the socket hold no lock.
final class TLSSocket: ByteStream {
    private let tcp: TCPSocket
    private let library: OpenSSL
    /// The session, until `close` frees it (`nil` then).
    private let session = Locked<OpaquePointer?>(nil)

    var endpoint: String { tcp.endpoint }

    /// The application protocol the server chose among those offered (ALPN), if any.
    private(set) var negotiatedProtocol: String?

    /// Connects to `host:port` and completes the handshake by `deadline`, offering the
    /// application `protocols` (ALPN: `h2` for gRPC), most wanted first.
    init(
        host: String, port: UInt16, context: TLSContext, protocols: [String] = [],
        until deadline: Deadline
    ) throws(EtcdError) {
        tcp = try TCPSocket(host: host, port: port, until: deadline)
        library = context.library
        guard let session = library.new(context.context) else {
            throw EtcdError(endpoint: tcp.endpoint, reason: "TLS: \(library.errors())")
        }
        self.session.withLock { $0 = session }
        _ = library.setDescriptor(session, tcp.descriptor)
        let parameters = library.verifyParameters(session)
        if library.setAddress(parameters, host) != 1 {  // not an IP address: a name
            guard library.setHost(parameters, host, 0) == 1 else {
                throw EtcdError(
                    endpoint: tcp.endpoint,
                    reason: "TLS: cannot check the certificate against \(host): \(library.errors())"
                )
            }
            _ = host.withCString {
                library.control(
                    session, OpenSSL.controlHostName, 0, UnsafeMutableRawPointer(mutating: $0))
            }
        }
        if !protocols.isEmpty {
            // Each name its length, then its bytes (RFC 7301); 0 is success here.
            let list = protocols.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            guard library.setProtocols(session, list, CUnsignedInt(list.count)) == 0 else {
                throw EtcdError(endpoint: tcp.endpoint, reason: "TLS: \(library.errors())")
            }
        }
        while true {
            let (result, code) = call { library.connect($0) }
            if result == 1 { break }
            try wait(after: code, until: deadline, doing: "TLS handshake")
        }
        var chosen: UnsafePointer<UInt8>?
        var length: CUnsignedInt = 0
        library.selectedProtocol(session, &chosen, &length)  // before another thread has it
        if let chosen, length > 0 {
            negotiatedProtocol = String(
                decoding: UnsafeBufferPointer(start: chosen, count: Int(length)), as: UTF8.self)
        }
    }

    deinit { close() }

    /// Runs `body`, a call into the session, and reads its error code, holding the
    /// session's lock (and with `SIGPIPE` held back): the result, and the code when it is
    /// not a success. Once closed, the session is refused as a failed system call.
    private func call(_ body: (OpaquePointer) -> CInt) -> (result: CInt, code: CInt) {
        session.withLock { session in
            guard let session else { return (-1, OpenSSL.syscallError) }
            let result = Self.withoutBrokenPipeSignal { body(session) }
            return (result, result > 0 ? 0 : library.error(session, result))
        }
    }

    /// Waits for what OpenSSL needs after a call failed with `code` (`true`), or until
    /// `wake` is signalled (`false`), or throws its error.
    @discardableResult
    private func wait(
        after code: CInt, until deadline: Deadline, doing what: String, wake: WakeSignal? = nil
    ) throws(EtcdError) -> Bool {
        let events: Int16
        var kind = EtcdError.Kind.other
        switch code {
        case OpenSSL.wantRead: events = Int16(POLLIN)
        case OpenSSL.wantWrite: events = Int16(POLLOUT)
        default:
            let verify = session.withLock { $0.map(library.verifyResult) ?? 0 }
            var reason = library.errors()
            if verify != 0, let text = library.verifyErrorString(verify) {
                reason = "the server's certificate is not trusted (\(String(cString: text)))"
                kind = .untrustedCertificate
            } else if reason.isEmpty {
                reason = code == OpenSSL.syscallError ? TCPSocket.errnoText() : "error \(code)"
            }
            throw EtcdError(endpoint: endpoint, reason: "\(what) failed: \(reason)", kind: kind)
        }
        do {
            return try tcp.wait(for: events, until: deadline, wake: wake)
        } catch {
            throw EtcdError(
                endpoint: error.endpoint, reason: "\(what): \(error.reason)", kind: error.kind)
        }
    }

    func send(_ bytes: [UInt8], until deadline: Deadline) throws(EtcdError) {
        var offset = 0
        while offset < bytes.count {
            let (written, code) = bytes[offset...].withUnsafeBytes { bytes in
                call {
                    library.write($0, bytes.baseAddress, CInt(min(bytes.count, Int(CInt.max))))
                }
            }
            if written > 0 {
                offset += Int(written)
            } else {
                try wait(after: code, until: deadline, doing: "sending")
            }
        }
    }

    func receive(into buffer: inout [UInt8], until deadline: Deadline, wake: WakeSignal?)
        throws(EtcdError) -> Int?
    {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let (count, code) = chunk.withUnsafeMutableBytes { chunk in
                call { library.read($0, chunk.baseAddress, CInt(chunk.count)) }
            }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<Int(count)])
                return Int(count)
            }
            if code == OpenSSL.zeroReturn { return 0 }  // the peer ended the session
            if code == OpenSSL.syscallError && errno == 0 { return 0 }  // closed without it
            guard try wait(after: code, until: deadline, doing: "receiving", wake: wake) else {
                return nil
            }
        }
    }

    /// Runs `body` with `SIGPIPE` blocked on this thread, and takes back one it raised:
    /// OpenSSL writes to the socket with `write`, which a peer gone would answer with a
    /// signal that ends the process, where `send` with `MSG_NOSIGNAL` returns `EPIPE`.
    /// The process's own handling of `SIGPIPE` is left as it is.
    ///
    /// The corresponding C functions are `pthread_sigmask`, `sigpending` and `sigtimedwait`.
    private static func withoutBrokenPipeSignal<R>(_ body: () -> R) -> R {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &old)
        let result = body()
        if !wasPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipe, nil, &now)
            }
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        return result
    }

    var isClosedByPeer: Bool { tcp.isClosedByPeer }

    func shutdown() { tcp.shutdown() }

    func close() {
        session.withLock { session in
            if let opened = session {
                library.free(opened)
                session = nil
            }
        }
        tcp.close()
    }
}
