/// An error from the store: what went wrong, which file, where in it, and why.
///
/// Its description reads like a compiler's: `data/task-3.json:4:12: expected ',' or '}'
/// after an object member, found '"'`. File names and text from files are escaped, so an
/// error is always safe to print. Match a code with `~=`:
///
/// ```swift
/// do { try store.put("../x", item) }
/// catch StoreError.Code.invalidID { print("bad id") }
/// ```
///
/// Errors are equal when they say the same thing (`underlying` aside), so they compare
/// as values, not by their descriptions.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// A kind of error. Extensible: more codes may come, so `switch` needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ name: String) { description = name }

        /// The id is not a valid item id; nothing was touched.
        public static let invalidID = Code("invalid id")
        /// The file is not valid JSON (RFC 8259); `line` and `column` say where.
        public static let invalidJSON = Code("invalid JSON")
        /// The file is JSON but not a valid item: not an object, a mismatched `"id"`, or a
        /// value that does not decode as the requested type.
        public static let invalidItem = Code("invalid item")
        /// The file is larger than the store's size limit.
        public static let tooLarge = Code("too large")
        /// A symlink, FIFO, socket, device or directory where an item file should be.
        public static let notRegularFile = Code("not a regular file")
        /// No item with this id.
        public static let notFound = Code("not found")
        /// The store directory does not exist or is not a directory.
        public static let storeUnavailable = Code("store unavailable")
        /// The file system refused access (`EACCES`, `EPERM`).
        public static let permissionDenied = Code("permission denied")
        /// No space left on the device, or a quota reached (`ENOSPC`, `EDQUOT`).
        public static let noSpace = Code("no space")
        /// The file would exceed the process's or file system's size limit (`EFBIG`).
        public static let fileTooLarge = Code("file too large")
        /// The file system is mounted read-only (`EROFS`).
        public static let readOnly = Code("read-only file system")
        /// The file kept being replaced by a writer that takes no lock (an editor's save)
        /// while a read-modify-write ran, every time it was tried again.
        public static let conflict = Code("conflict")
        /// A compare-and-swap was refused: the item's etag is not the one expected (someone
        /// changed or deleted it since it was read), or an item expected absent exists.
        /// Nothing was written; the message gives the etag now.
        public static let changed = Code("changed")
        /// `resolve` was asked for `.mine` or `.theirs` where the kept versions' names cannot
        /// tell which version that is (another sync tool's copies, several kept versions):
        /// name the version. Nothing was changed.
        public static let ambiguous = Code("ambiguous")
        /// Any other failure of a system call; `underlying` holds the `Errno`.
        public static let io = Code("I/O error")
        /// inotify's per-user limits (instances, watches) or the process's descriptor
        /// limit are reached: the message says which, and how to raise it.
        public static let watchLimit = Code("watch limit")
        /// A JSON Schema that cannot be used: not a 2020-12 schema, a `$ref` that names no
        /// document known, a `pattern` that does not compile. The message names the keyword
        /// and where it is.
        public static let invalidSchema = Code("invalid schema")
        /// The item breaks the store's schema (`.jsonstore/schema.json`): read, it is
        /// invalid as a file that is not JSON is; written through jsonstore, the write is
        /// refused and nothing is written. `violations` has every way it breaks it.
        public static let schemaViolation = Code("schema violation")
        /// What was asked is not something this store does (history on a store that keeps
        /// none): the message says why.
        public static let unsupported = Code("unsupported")
    }

    /// What kind of error this is.
    public var code: Code
    /// The reason, for a person: what happened and, where it helps, what to do.
    public var message: String
    /// The path of the file concerned, if any.
    public var file: String?
    /// The item id concerned, if any.
    public var id: String?
    /// The line in `file`, from 1, for JSON errors.
    public var line: Int?
    /// The column in `file`, in characters from 1, for JSON errors.
    public var column: Int?
    /// What caused this error: an `Errno`, a `JSONSyntaxError`, a `DecodingError`.
    public var underlying: (any Error)?
    /// Every way the item breaks the store's schema, each located in the file (code
    /// `.schemaViolation`), or every way a schema breaks the 2020-12 meta-schema (code
    /// `.invalidSchema`); empty otherwise. `line` and `column` are the first one's.
    public var violations: [SchemaViolation] = []

    public init(
        code: Code, message: String, file: String? = nil, id: String? = nil,
        line: Int? = nil, column: Int? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.id = id
        self.line = line
        self.column = column
        self.underlying = underlying
    }

    /// `file:line:column: message`, with the parts that apply, safe to print.
    public var description: String {
        var location = ""
        if let file {
            location = Display.escaped(file)
            if let line {
                location += ":\(line)"
                if let column { location += ":\(column)" }
            }
            location += ": "
        }
        return location + Display.escaped(message)
    }
}

extension StoreError: Equatable {
    /// Whether `a` and `b` say the same thing: the same code, message, file, id, line,
    /// column and violations. `underlying`, the cause, is not compared (it may not be
    /// `Equatable`, and the message says it already).
    public static func == (a: StoreError, b: StoreError) -> Bool {
        a.code == b.code && a.message == b.message && a.file == b.file && a.id == b.id
            && a.line == b.line && a.column == b.column && a.violations == b.violations
    }
}

extension StoreError.Code {
    /// Whether `error` is a `StoreError` with this code, for `catch StoreError.Code.notFound`.
    public static func ~= (code: StoreError.Code, error: any Error) -> Bool {
        (error as? StoreError)?.code == code
    }
}

extension StoreError {
    /// The error for a failed system call on `file`, with a code chosen from `errno`.
    ///
    /// - Parameter doing: what was being done, as in "could not write": the message
    ///   reads "could not write: No space left on device".
    static func system(_ errno: Errno, _ doing: String, file: String?, id: String? = nil)
        -> StoreError
    {
        // Spelled out as `Errno.x`: a bare `.noSpace` here would match `Code.noSpace`
        // through `Code.~=`, since an `Errno` is an `Error`.
        let code: Code
        switch errno {
        case Errno.permissionDenied, Errno.notPermitted: code = .permissionDenied
        case Errno.noSpace, Errno.diskQuota: code = .noSpace
        case Errno.fileTooLarge: code = .fileTooLarge
        case Errno.readOnlyFileSystem: code = .readOnly
        case Errno.noSuchFile: code = .notFound
        default: code = .io
        }
        return StoreError(
            code: code, message: "\(doing): \(errno)", file: file, id: id, underlying: errno)
    }

    /// The error for a file that is not valid JSON.
    static func syntax(_ error: JSONSyntaxError, file: String, id: String?) -> StoreError {
        StoreError(
            code: error.kind == .tooLarge ? .tooLarge : .invalidJSON, message: error.reason,
            file: file, id: id, line: error.line, column: error.column, underlying: error)
    }

    /// The error for a refused id.
    static func invalidID(_ id: String, _ reason: String) -> StoreError {
        StoreError(
            code: .invalidID, message: "invalid id \"\(Display.escaped(id))\": \(reason)", id: id)
    }

    /// The error for a value that does not decode as the requested type.
    static func decoding(_ error: DecodingError, file: String, id: String) -> StoreError {
        let (context, detail): (DecodingError.Context, String)
        switch error {
        case .typeMismatch(_, let c): (context, detail) = (c, c.debugDescription)
        case .valueNotFound(_, let c): (context, detail) = (c, c.debugDescription)
        case .keyNotFound(_, let c): (context, detail) = (c, c.debugDescription)
        case .dataCorrupted(let c): (context, detail) = (c, c.debugDescription)
        @unknown default:
            return StoreError(code: .invalidItem, message: "\(error)", file: file, id: id)
        }
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        let at = path.isEmpty ? "" : "at \(path): "
        return StoreError(
            code: .invalidItem, message: at + detail, file: file, id: id, underlying: error)
    }
}
