import Glibc

/// An error number returned by a system call.
///
/// The store keeps C names out of its code: `Errno.noSuchFile` rather than `ENOENT`.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw C error number.
    public var rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The error of the last failed system call on this thread.
    static var current: Errno { Errno(rawValue: errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let diskQuota = Errno(rawValue: EDQUOT)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let ioError = Errno(rawValue: EIO)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let invalidArgument = Errno(rawValue: EINVAL)
}
