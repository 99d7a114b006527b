import Testing

@testable import JSONStoreEtcd

/// The mirror's decision for one item, from both sides and the record of the last sync:
/// every case of changed on neither, one or both sides.
@Suite("Mirror: the decision for one item")
struct MirrorActionTests {
    typealias Record = MirrorState.Record

    static let cases: [(MirrorAction.Local, MirrorAction.Remote, Record?, MirrorAction, String)] = [
        (
            .file(etag: "a"), .value(revision: 5, etag: "a"), Record(revision: 5, etag: "a"), .none,
            "equal"
        ),
        (.absent, .absent, Record(revision: 9, etag: nil), .none, "deleted on both, recorded"),
        (.absent, .absent, nil, .none, "never there"),
        (
            .file(etag: "b"), .value(revision: 5, etag: "a"), Record(revision: 5, etag: "a"),
            .push(expecting: 5), "edited here"
        ),
        (.file(etag: "b"), .absent, nil, .push(expecting: 0), "new here"),
        (
            .file(etag: "b"), .absent, Record(revision: 7, etag: nil), .push(expecting: 0),
            "made again here after a deletion"
        ),
        (
            .absent, .value(revision: 5, etag: "a"), Record(revision: 5, etag: "a"),
            .deleteRemote(expecting: 5), "deleted here"
        ),
        (
            .file(etag: "a"), .value(revision: 8, etag: "c"), Record(revision: 5, etag: "a"), .pull,
            "edited in etcd"
        ),
        (.absent, .value(revision: 8, etag: "c"), nil, .pull, "new in etcd"),
        (
            .file(etag: "a"), .absent, Record(revision: 5, etag: "a"), .deleteLocal,
            "deleted in etcd"
        ),
        (
            .file(etag: "c"), .value(revision: 8, etag: "c"), Record(revision: 5, etag: "a"),
            .adopt, "the same edit on both"
        ),
        (
            .file(etag: "c"), .value(revision: 8, etag: "c"), nil, .adopt,
            "the same on both, never synced"
        ),
        (.absent, .absent, Record(revision: 5, etag: "a"), .adopt, "deleted on both"),
        (
            .file(etag: "b"), .value(revision: 8, etag: "c"), Record(revision: 5, etag: "a"),
            .conflict, "edited on both"
        ),
        (
            .file(etag: "b"), .value(revision: 8, etag: "c"), nil, .conflict,
            "different on both, never synced"
        ),
        (
            .file(etag: "b"), .absent, Record(revision: 5, etag: "a"), .conflict,
            "edited here, deleted in etcd"
        ),
        (
            .absent, .value(revision: 8, etag: "c"), Record(revision: 5, etag: "a"), .pull,
            "deleted here, edited in etcd"
        ),
        (
            .invalid, .value(revision: 8, etag: "c"), Record(revision: 5, etag: "a"), .none,
            "invalid here"
        ),
        (.file(etag: "b"), .invalid, Record(revision: 5, etag: "a"), .none, "invalid in etcd"),
    ]

    @Test("each case", arguments: cases)
    func decide(
        _ example: (MirrorAction.Local, MirrorAction.Remote, Record?, MirrorAction, String)
    ) {
        let (local, remote, record, expected, what) = example
        #expect(
            MirrorAction.decide(local: local, remote: remote, record: record) == expected, "\(what)"
        )
    }
}
