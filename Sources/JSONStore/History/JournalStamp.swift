/// A journal revision as a stream token names it: the revision and the journal it is of,
/// `"41@9f3a0c1d2b4e5f60"`. The journal's name (the start of the 128 bits its header
/// gives) tells a revision of this journal from one of a journal that was removed and
/// begun again, or of a copy of the store with a journal of its own, whose numbers mean
/// other states.
struct JournalStamp: Sendable, Hashable, CustomStringConvertible {
    /// How many hexadecimal digits of the journal's name a token carries: 64 bits.
    static let tagLength = 16

    let revision: Int
    /// The start of the journal's name.
    let journal: String

    init(revision: Int, journalID: String) {
        self.revision = revision
        journal = String(journalID.prefix(Self.tagLength))
    }

    /// The stamp a token names: `"41@tag"`, or a bare revision (`"41"`, as `log` shows
    /// them) of the journal `current`. `nil` when the token is neither.
    init?(token: String, current journalID: String?) {
        let parts = token.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let revision = Int(first)
        else { return nil }
        if parts.count == 2 {
            guard parts[1].utf8.count == Self.tagLength,
                parts[1].utf8.allSatisfy({
                    (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
                })
            else { return nil }
            self.init(revision: revision, journalID: String(parts[1]))
        } else {
            guard let journalID else { return nil }
            self.init(revision: revision, journalID: journalID)
        }
    }

    /// Whether this is a revision of the journal named `journalID`.
    func isOf(_ journalID: String) -> Bool {
        journal == journalID.prefix(Self.tagLength)
    }

    var description: String { "\(revision)@\(journal)" }
}
