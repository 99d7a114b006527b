/// A head, or that there is none, in 32 bytes: the revisions and the fingerprint's hash
/// in words of their own, and in the last its size (48 bits), whether it has one, the
/// kind and the modifications since a whole value (at most 255 told apart: a whole value
/// is kept every `JournalHeads.keyframeInterval`).
struct PackedHead: Sendable {
    private let revision: Int
    private let wholeAt: Int
    private let hash: UInt64
    private let bits: UInt64

    private static let none: UInt64 = 1 << 11
    private static let hasFingerprint: UInt64 = 1 << 10
    private static let removedBit: UInt64 = 1 << 12

    /// The mark of an id whose head is no longer held here (`HeadTable`'s entries keep its
    /// place until they are made again).
    static let removed = PackedHead(marking: removedBit)

    private init(marking bits: UInt64) {
        (revision, wholeAt, hash, self.bits) = (0, 0, 0, bits)
    }

    var isRemoved: Bool { bits & Self.removedBit != 0 }

    init(_ head: JournalHeads.Head?) {
        guard let head else {
            (revision, wholeAt, hash, bits) = (0, 0, 0, Self.none)
            return
        }
        (revision, wholeAt, hash) = (head.revision, head.wholeAt, head.fingerprint?.hash ?? 0)
        var bits = UInt64(min(max(head.sinceKeyframe, 0), 255)) | head.kind.packed << 8
        if let fingerprint = head.fingerprint {
            bits |= Self.hasFingerprint | UInt64(min(fingerprint.size, 1 << 48 - 1)) << 16
        }
        self.bits = bits
    }

    var head: JournalHeads.Head? {
        guard bits & Self.none == 0 else { return nil }
        let fingerprint =
            bits & Self.hasFingerprint == 0
            ? nil : Fingerprint(size: Int(bits >> 16), hash: hash)
        return JournalHeads.Head(
            revision: revision, kind: HistoryEntry.Kind(packed: bits >> 8),
            fingerprint: fingerprint, sinceKeyframe: Int(bits & 0xFF), wholeAt: wholeAt)
    }
}

extension HistoryEntry.Kind {
    /// The kind in two bits, as a packed head keeps it (`PackedHead`, `BoundHeads`).
    var packed: UInt64 {
        switch self {
        case .created: 0
        case .modified: 1
        case .deleted: 2
        }
    }

    /// The kind of two packed bits, the lowest of `bits`.
    init(packed bits: UInt64) {
        switch bits & 3 {
        case 0: self = .created
        case 1: self = .modified
        default: self = .deleted
        }
    }
}
