import TestSupport
import Testing

/// Every test that starts a real etcd, one at a time: each starts its own, and several at
/// once would load a small machine (and pick their free ports in a race with one another).
/// Skipped, with how to install etcd, where it is missing; `.ci/run` fails on that skip.
@Suite(
    "etcd", .serialized,
    .enabled(
        if: EtcdServer.isInstalled,
        "etcd is not installed: apt-get install etcd-server etcd-client"))
enum EtcdTests {}
