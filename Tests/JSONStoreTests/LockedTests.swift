import Dispatch
import Testing

@testable import JSONStore

/// The lock behind the store state and the test recorders. `.ci/run` runs this under
/// ThreadSanitizer, which fails the run on any report: `Synchronization.Mutex` did not pass
/// it (its contended path is invisible to the sanitizer), this lock does.
@Suite("Locked")
struct LockedTests {
    @Test("8 threads × 20,000 contended updates lose none and race with none")
    func contended() {
        let counter = Locked((count: 0, log: [Int]()))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<20_000 {
                counter.withLock { value in
                    value.count += 1
                    value.log.append(thread * 100_000 + i)
                    if value.log.count > 64 { value.log.removeAll(keepingCapacity: true) }
                }
            }
        }
        #expect(counter.withLock { $0.count } == 160_000)
    }

    @Test("a lock guarding no value, only a section, races with none")
    func sectionOnly() {
        // Each thread's entry into the section is counted outside the lock, in a
        // counter of its own; the section itself checks no other thread is in it.
        let section = Locked(())
        nonisolated(unsafe) let inside = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        inside.initialize(to: 0)
        defer { inside.deallocate() }
        let overlaps = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 {
                section.withLock { _ in
                    inside.pointee += 1
                    if inside.pointee != 1 { overlaps.withLock { $0 += 1 } }
                    inside.pointee -= 1
                }
            }
        }
        #expect(overlaps.withLock { $0 } == 0)
        #expect(inside.pointee == 0)
    }

    @Test("withLock returns what its body returns and passes on what it throws")
    func returnsAndThrows() {
        struct Boom: Error {}
        let locked = Locked([1, 2, 3])
        #expect(locked.withLock { $0.reduce(0, +) } == 6)
        #expect(throws: Boom.self) { try locked.withLock { _ in throw Boom() } }
        locked.withLock { $0.append(4) }
        #expect(locked.withLock { $0 } == [1, 2, 3, 4])
    }
}
