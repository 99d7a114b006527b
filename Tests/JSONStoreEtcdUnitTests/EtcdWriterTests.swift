import Testing

@testable import JSONStoreEtcd

/// How the writer cuts a run of writes into transactions within etcd's limits, and names
/// the limit etcd says a request went over.
@Suite("The etcd writer's transactions and limits")
struct EtcdWriterTests {
    let limits = EtcdWriter.limits

    @Test("no writes, no transaction; a few small ones, one")
    func small() {
        #expect(EtcdWriter.runs([]).isEmpty)
        #expect(EtcdWriter.runs([10, 20, 30]) == [0..<3])
    }

    @Test("at most 128 operations a transaction, in order, every write in one")
    func operations() {
        let runs = EtcdWriter.runs(Array(repeating: 1, count: 300))
        #expect(runs == [0..<128, 128..<256, 256..<300])
    }

    @Test("at most 1 MiB of values a transaction; a larger write alone in its own")
    func bytes() {
        let half = limits.bytes / 2
        #expect(EtcdWriter.runs([half, half, 1]) == [0..<2, 2..<3])
        #expect(EtcdWriter.runs([1, limits.bytes * 3, 1]) == [0..<1, 1..<2, 2..<3])
        let runs = EtcdWriter.runs((0..<1000).map { $0 % 7 * 40_000 })
        #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == 1000)
        for (run, next) in zip(runs, runs.dropFirst()) {
            #expect(run.upperBound == next.lowerBound)
        }
        let sizes = (0..<1000).map { $0 % 7 * 40_000 }
        for run in runs {
            #expect(run.count <= limits.operations)
            #expect(run.count == 1 || sizes[run].reduce(0, +) <= limits.bytes)
        }
    }

    @Test("etcd's refusals named by the option that sets the limit; others not")
    func limitNames() {
        let tooLarge = EtcdError(
            endpoint: "e", reason: "etcdserver: request is too large", grpcCode: 3)
        let tooMany = EtcdError(
            endpoint: "e", reason: "etcdserver: too many operations in txn request", grpcCode: 3)
        let other = EtcdError(endpoint: "e", reason: "etcdserver: no leader", grpcCode: 14)
        #expect(EtcdWriter.limit(of: tooLarge)?.contains("--max-request-bytes") == true)
        #expect(EtcdWriter.limit(of: tooMany)?.contains("--max-txn-ops") == true)
        #expect(EtcdWriter.limit(of: other) == nil)
        #expect(EtcdWriter.limit(of: EtcdError(endpoint: "e", reason: "refused")) == nil)
    }
}
