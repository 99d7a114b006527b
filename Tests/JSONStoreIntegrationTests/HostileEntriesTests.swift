import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

@Suite("Hostile directory entries")
struct HostileEntriesTests {
    @Test(
        "each is reported clearly, every other item loads, nothing hangs", .timeLimit(.minutes(1)))
    func hostileEntries() throws {
        let temp = try TemporaryStore()
        let outside = try TemporaryStore()
        try outside.writeFile("secret.json", "{\"secret\": true}")
        let p = { (name: String) in temp.path + "/" + name }

        try temp.writeFile("a.json", "{\"title\": \"A\"}")
        try temp.writeFile("b.json", "{\"title\": \"B\"}")
        #expect(mkfifo(p("fifo.json"), 0o644) == 0)
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in p("socket.json").utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        defer { close(sock) }
        #expect(symlink(outside.path + "/secret.json", p("outside.json")) == 0)
        #expect(symlink("loop.json", p("loop.json")) == 0)
        #expect(mkdir(p("dir.json"), 0o755) == 0)
        try temp.writeFile("empty.json", "")
        let big = "{\"x\": \"" + String(repeating: "a", count: 20 << 20) + "\"}"
        try temp.writeFile("big.json", big)
        try Data([0x7B, 0x22, 0x74, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]).write(
            to: URL(fileURLWithPath: p("utf8.json")))
        try temp.writeFile("new\nline.json", "{}")
        try temp.writeFile("esc\u{1B}[2J.json", "{}")
        let badName: [UInt8] = Array(p("bad").utf8) + [0xFF] + Array("name.json".utf8) + [0]
        let fd = badName.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
            }
        }
        #expect(fd >= 0)
        close(fd)

        let contents = try temp.store.load()
        #expect(contents.items.map(\.id) == ["a", "b"])
        let codes = Dictionary(
            uniqueKeysWithValues: contents.invalid.map { ($0.name, $0.error.code) })
        #expect(codes["fifo.json"] == .notRegularFile)
        #expect(codes["socket.json"] == .notRegularFile)
        #expect(codes["outside.json"] == .notRegularFile)
        #expect(codes["loop.json"] == .notRegularFile)
        #expect(codes["dir.json"] == .notRegularFile)
        #expect(codes["empty.json"] == .invalidJSON)
        #expect(codes["big.json"] == .tooLarge)
        #expect(codes["utf8.json"] == .invalidJSON)
        #expect(codes["new\nline.json"] == .invalidID)
        #expect(codes["esc\u{1B}[2J.json"] == .invalidID)
        #expect(codes[#"bad\xffname.json"#] == .invalidID)
        #expect(contents.invalid.count == 11)

        let messages = Dictionary(
            uniqueKeysWithValues: contents.invalid.map { ($0.name, $0.error.description) })
        #expect(
            messages["fifo.json"]?.hasSuffix(
                "fifo.json: is a FIFO; item files must be regular files") == true)
        #expect(messages["socket.json"]?.contains("is a socket") == true)
        #expect(messages["outside.json"]?.contains("symbolic link (not followed)") == true)
        #expect(messages["dir.json"]?.contains("is a directory") == true)
        #expect(
            messages["empty.json"]?.contains("empty.json:1:1: no JSON value: the input is empty")
                == true)
        #expect(messages["big.json"]?.contains("is 20.0 MiB, larger than the 16 MiB limit") == true)
        #expect(messages["utf8.json"]?.contains("utf8.json:1:7: invalid UTF-8") == true)
        #expect(
            messages["new\nline.json"]?.contains(
                "new\\nline.json: the file name gives an invalid id") == true)
        #expect(messages["esc\u{1B}[2J.json"]?.contains("esc^[[2J.json") == true)
        for message in messages.values {
            #expect(
                !message.unicodeScalars.contains {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                })
        }
        // The symlink's target was not read and nothing was changed.
        #expect(outside.readFile("secret.json") == "{\"secret\": true}")
    }
}
