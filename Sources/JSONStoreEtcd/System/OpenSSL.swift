import Glibc

/// The system's OpenSSL 3 (`libssl.so.3`, `libcrypto.so.3`), loaded with `dlopen` the
/// first time a store on `etcds://` connects: a program that never asks for TLS never
/// loads it, and nothing needs its headers to build.
///
/// Only the calls a TLS client needs, each looked up by name and called through a C
/// function pointer of the signature OpenSSL 3 documents for it.
struct OpenSSL: @unchecked Sendable {  // C function pointers, immutable after loading
    typealias Pointer = OpaquePointer?
    typealias CString = UnsafePointer<CChar>?

    let clientMethod: @convention(c) () -> Pointer
    let contextNew: @convention(c) (Pointer) -> Pointer
    let contextFree: @convention(c) (Pointer) -> Void
    let contextControl: @convention(c) (Pointer, CInt, CLong, UnsafeMutableRawPointer?) -> CLong
    let contextSetVerify: @convention(c) (Pointer, CInt, Pointer) -> Void
    let contextLoadVerifyLocations: @convention(c) (Pointer, CString, CString) -> CInt
    let contextSetDefaultVerifyPaths: @convention(c) (Pointer) -> CInt
    let contextUseCertificateChainFile: @convention(c) (Pointer, CString) -> CInt
    let contextUsePrivateKeyFile: @convention(c) (Pointer, CString, CInt) -> CInt
    let contextCheckPrivateKey: @convention(c) (Pointer) -> CInt
    let new: @convention(c) (Pointer) -> Pointer
    let free: @convention(c) (Pointer) -> Void
    let setDescriptor: @convention(c) (Pointer, CInt) -> CInt
    let control: @convention(c) (Pointer, CInt, CLong, UnsafeMutableRawPointer?) -> CLong
    let verifyParameters: @convention(c) (Pointer) -> Pointer
    let setHost: @convention(c) (Pointer, CString, Int) -> CInt
    let setAddress: @convention(c) (Pointer, CString) -> CInt
    let connect: @convention(c) (Pointer) -> CInt
    /// ALPN: the protocols offered, and the one the server chose.
    let setProtocols: @convention(c) (Pointer, UnsafePointer<UInt8>?, CUnsignedInt) -> CInt
    let selectedProtocol:
        @convention(c) (
            Pointer, UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
            UnsafeMutablePointer<CUnsignedInt>?
        ) ->
            Void
    let read: @convention(c) (Pointer, UnsafeMutableRawPointer?, CInt) -> CInt
    let write: @convention(c) (Pointer, UnsafeRawPointer?, CInt) -> CInt
    let error: @convention(c) (Pointer, CInt) -> CInt
    let verifyResult: @convention(c) (Pointer) -> CLong
    let verifyErrorString: @convention(c) (CLong) -> CString
    let nextError: @convention(c) () -> CUnsignedLong
    let errorString: @convention(c) (CUnsignedLong, UnsafeMutablePointer<CChar>?, Int) -> Void

    // The constants of OpenSSL 3's headers that these calls take.
    static let verifyPeer: CInt = 1  // SSL_VERIFY_PEER
    static let filetypePEM: CInt = 1  // SSL_FILETYPE_PEM
    static let controlMode: CInt = 33  // SSL_CTRL_MODE
    static let movingWriteBuffer: CLong = 2  // SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
    static let controlHostName: CInt = 55  // SSL_CTRL_SET_TLSEXT_HOSTNAME
    static let wantRead: CInt = 2  // SSL_ERROR_WANT_READ
    static let wantWrite: CInt = 3  // SSL_ERROR_WANT_WRITE
    static let syscallError: CInt = 5  // SSL_ERROR_SYSCALL
    static let zeroReturn: CInt = 6  // SSL_ERROR_ZERO_RETURN

    /// The library, or why it could not be loaded.
    static let shared: Result<OpenSSL, EtcdError> = load()

    private static func load() -> Result<OpenSSL, EtcdError> {
        guard let crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_GLOBAL),
            let ssl = dlopen("libssl.so.3", RTLD_NOW)
        else {
            return .failure(
                EtcdError(
                    endpoint: "TLS",
                    reason: "etcds:// needs OpenSSL 3 (libssl.so.3): apt-get install libssl3"))
        }
        var missing: [String] = []
        func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as: T.Type) -> T {
            guard let found = dlsym(library, name) else {
                missing.append(name)
                return unsafeBitCast(dlsym(ssl, "SSL_new")!, to: T.self)  // never called
            }
            return unsafeBitCast(found, to: T.self)
        }
        let library = OpenSSL(
            clientMethod: symbol(ssl, "TLS_client_method", as: (@convention(c) () -> Pointer).self),
            contextNew: symbol(ssl, "SSL_CTX_new", as: (@convention(c) (Pointer) -> Pointer).self),
            contextFree: symbol(ssl, "SSL_CTX_free", as: (@convention(c) (Pointer) -> Void).self),
            contextControl: symbol(
                ssl, "SSL_CTX_ctrl",
                as: (@convention(c) (Pointer, CInt, CLong, UnsafeMutableRawPointer?) -> CLong).self),
            contextSetVerify: symbol(
                ssl, "SSL_CTX_set_verify",
                as: (@convention(c) (Pointer, CInt, Pointer) -> Void).self),
            contextLoadVerifyLocations: symbol(
                ssl, "SSL_CTX_load_verify_locations",
                as: (@convention(c) (Pointer, CString, CString) -> CInt).self),
            contextSetDefaultVerifyPaths: symbol(
                ssl, "SSL_CTX_set_default_verify_paths", as: (@convention(c) (Pointer) -> CInt).self
            ),
            contextUseCertificateChainFile: symbol(
                ssl, "SSL_CTX_use_certificate_chain_file",
                as: (@convention(c) (Pointer, CString) -> CInt).self),
            contextUsePrivateKeyFile: symbol(
                ssl, "SSL_CTX_use_PrivateKey_file",
                as: (@convention(c) (Pointer, CString, CInt) -> CInt).self),
            contextCheckPrivateKey: symbol(
                ssl, "SSL_CTX_check_private_key", as: (@convention(c) (Pointer) -> CInt).self),
            new: symbol(ssl, "SSL_new", as: (@convention(c) (Pointer) -> Pointer).self),
            free: symbol(ssl, "SSL_free", as: (@convention(c) (Pointer) -> Void).self),
            setDescriptor: symbol(
                ssl, "SSL_set_fd", as: (@convention(c) (Pointer, CInt) -> CInt).self),
            control: symbol(
                ssl, "SSL_ctrl",
                as: (@convention(c) (Pointer, CInt, CLong, UnsafeMutableRawPointer?) -> CLong).self),
            verifyParameters: symbol(
                ssl, "SSL_get0_param", as: (@convention(c) (Pointer) -> Pointer).self),
            setHost: symbol(
                crypto, "X509_VERIFY_PARAM_set1_host",
                as: (@convention(c) (Pointer, CString, Int) -> CInt).self),
            setAddress: symbol(
                crypto, "X509_VERIFY_PARAM_set1_ip_asc",
                as: (@convention(c) (Pointer, CString) -> CInt).self),
            connect: symbol(ssl, "SSL_connect", as: (@convention(c) (Pointer) -> CInt).self),
            setProtocols: symbol(
                ssl, "SSL_set_alpn_protos",
                as: (@convention(c) (Pointer, UnsafePointer<UInt8>?, CUnsignedInt) -> CInt).self),
            selectedProtocol: symbol(
                ssl, "SSL_get0_alpn_selected",
                as: (@convention(c) (
                    Pointer, UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
                    UnsafeMutablePointer<CUnsignedInt>?
                ) -> Void).self),
            read: symbol(
                ssl, "SSL_read",
                as: (@convention(c) (Pointer, UnsafeMutableRawPointer?, CInt) -> CInt).self),
            write: symbol(
                ssl, "SSL_write",
                as: (@convention(c) (Pointer, UnsafeRawPointer?, CInt) -> CInt).self),
            error: symbol(ssl, "SSL_get_error", as: (@convention(c) (Pointer, CInt) -> CInt).self),
            verifyResult: symbol(
                ssl, "SSL_get_verify_result", as: (@convention(c) (Pointer) -> CLong).self),
            verifyErrorString: symbol(
                crypto, "X509_verify_cert_error_string",
                as: (@convention(c) (CLong) -> CString).self),
            nextError: symbol(
                crypto, "ERR_get_error", as: (@convention(c) () -> CUnsignedLong).self),
            errorString: symbol(
                crypto, "ERR_error_string_n",
                as: (@convention(c) (CUnsignedLong, UnsafeMutablePointer<CChar>?, Int) -> Void).self
            ))
        guard missing.isEmpty else {
            return .failure(
                EtcdError(
                    endpoint: "TLS",
                    reason: "OpenSSL lacks \(missing.joined(separator: ", ")) (OpenSSL 3 is needed)"
                ))
        }
        return .success(library)
    }

    /// OpenSSL's queued errors as text, oldest first (emptying the queue).
    func errors() -> String {
        var texts: [String] = []
        while case let code = nextError(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            errorString(code, &buffer, buffer.count)
            let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            texts.append(String(decoding: text, as: UTF8.self))
        }
        return texts.joined(separator: "; ")
    }
}
