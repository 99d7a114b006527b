extension Journal {
    /// The marker a whole look at the store leaves in the journal's folder (`looked`,
    /// holding the journal's name): from then on, an item the journal has no entry of was
    /// made since. Before it, such an item may have been there before the journal began,
    /// and is recorded where its history begins (`HistoryEntry.isBaseline`), not as made.
    static let lookedName = folderName + "/looked"

    /// Whether the journal named `journalID` has looked at the whole store.
    func hasLooked(_ journalID: String?) -> Bool {
        guard let journalID, let bytes = try? folder.read(Self.lookedName, limit: 256) else {
            return false
        }
        return String(decoding: bytes, as: UTF8.self) == journalID
    }

    /// Notes that the journal named `journalID` has recorded the whole store. Best effort:
    /// without the marker, the next whole look notes it.
    func markLooked(_ journalID: String) {
        guard !hasLooked(journalID) else { return }
        try? folder.replace(Self.lookedName, with: Array(journalID.utf8))
    }

    /// Whether an item the journal has no entry of may have been there before the journal
    /// knew of it: the journal has not looked at the whole store yet, or was pruned.
    func mayPredate(_ journalID: String?) -> Bool {
        firstRevision > 1 || !hasLooked(journalID)
    }
}
