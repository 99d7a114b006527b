import Foundation
import Glibc
import TestSupport
import Testing

@testable import JSONStore

/// A read-modify-write under the store's lock against a writer that takes none (an
/// editor's save): the hand save lands between the read and the rename, exactly, through
/// the store's test hook, and is never overwritten.
@Suite("Writers that take no lock")
struct UnlockedWriterTests {
    /// A store whose batches run `save` once, at the first file they are about to replace.
    func store(_ temp: TemporaryStore, save: @escaping @Sendable () -> Void) throws -> JSONStore {
        let once = Locked(true)
        var options = JSONStore.Options()
        options.beforeReplacing = { _ in
            if once.withLock({ first in
                defer { first = false }
                return first
            }) {
                save()
            }
        }
        return try JSONStore(directory: temp.path, options: options)
    }

    @Test("a save by rename between update's read and its rename: kept, update applied on top")
    func saveByRename() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\n  \"n\": 1\n}\n")
        let path = temp.path
        let store = try store(temp) {
            // vim's and most editors' save: a new file renamed over the old one.
            let hand = "{\n  \"n\": 1,\n  \"hand\": true\n}\n"
            _ = FileManager.default.createFile(
                atPath: path + "/.a.json.swp", contents: Data(hand.utf8))
            rename(path + "/.a.json.swp", path + "/a.json")
        }
        let calls = Locked(0)
        try store.update("a") { object in
            calls.withLock { $0 += 1 }
            object["program"] = true
        }
        #expect(
            temp.readFile("a.json") == "{\n  \"n\": 1,\n  \"hand\": true,\n  \"program\": true\n}\n"
        )
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("a save in place of the same size, its time put back: the bytes tell")
    func saveInPlaceSameSize() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\n  \"n\": 1\n}\n")
        let path = temp.path + "/a.json"
        let store = try store(temp) {
            var before = stat()
            lstat(path, &before)
            let fd = open(path, O_WRONLY | O_TRUNC)
            let bytes = Array("{\n  \"n\": 7\n}\n".utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var times = [before.st_atim, before.st_mtim]
            futimens(fd, &times)
            close(fd)
        }
        try store.update("a") { $0["n"] = .number(JSONNumber($0["n"]!.intValue! + 1)) }
        #expect(temp.readFile("a.json") == "{\n  \"n\": 8\n}\n")
    }

    @Test("a file created by hand while set creates it: kept, set applied on top")
    func createdMeanwhile() throws {
        let temp = try TemporaryStore()
        let path = temp.path
        let store = try store(temp) {
            _ = FileManager.default.createFile(
                atPath: path + "/b.json", contents: Data("{\"hand\": 1}".utf8))
        }
        try store.update("b", orCreate: [:]) { $0["program"] = 2 }
        #expect(temp.readFile("b.json") == "{\n  \"hand\": 1,\n  \"program\": 2\n}\n")
    }

    @Test("a file that keeps changing: the write gives up with .conflict, nothing written")
    func keepsChanging() throws {
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{\"n\": 0}")
        let path = temp.path
        let counter = Locked(0)
        var options = JSONStore.Options()
        options.beforeReplacing = { _ in
            let n = counter.withLock {
                $0 += 1
                return $0
            }
            _ = FileManager.default.createFile(
                atPath: path + "/.hand", contents: Data("{\"n\": \(n)}".utf8))
            rename(path + "/.hand", path + "/a.json")
        }
        let store = try JSONStore(directory: path, options: options)
        let error = #expect(throws: StoreError.self) {
            try store.update("a") { $0["program"] = true }
        }
        #expect(error?.code == .conflict)
        let last = counter.withLock { $0 }
        #expect(last == 20)  // one hand save per try
        #expect(temp.readFile("a.json") == "{\"n\": \(last)}")
        #expect(
            try temp.names().allSatisfy { !$0.hasPrefix(".jsonstore-") || $0 == ".jsonstore.lock" })
    }
}
