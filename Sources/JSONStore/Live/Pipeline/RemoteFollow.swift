/// What the pipeline holds while it follows a remote store (`LiveEngine.Phase.following`):
/// the source, the catch-ups asked of it and the subscriptions waiting for the store at
/// an older revision. A source replaced by another is another `RemoteFollow`, with a new
/// generation, so reports still on their way from the old one are told apart and dropped.
///
/// A reference, so the pipeline changes it in place inside its phase. Guarded by the
/// pipeline (the `LiveEngine` actor): made, read and changed only there.
final class RemoteFollow {
    let source: any LiveSource
    /// Which source this is, of those the pipeline started (`LiveEngine.sourcesStarted`).
    let generation: Int
    /// `catchUp()` calls the source has not answered yet.
    var pendingCatchUps = 0
    /// Subscriptions waiting for the store at their revision, read from the remote store
    /// (`LiveEngine+Resuming`).
    var pendingResumes: Set<ObjectIdentifier> = []

    init(source: any LiveSource, generation: Int) {
        self.source = source
        self.generation = generation
    }
}
