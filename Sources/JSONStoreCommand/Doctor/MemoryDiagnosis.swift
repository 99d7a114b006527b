import FoundationEssentials
import JSONStore

/// `doctor --memory`: what the store takes in memory once loaded as a follower loads it,
/// by what holds it, each in all and per item, and this process's resident memory.
struct MemoryDiagnosis {
    let usage: MemoryUsage
    /// VmRSS and VmHWM of this process, in bytes, where /proc says them.
    let resident: Int?
    let peak: Int?

    init(_ usage: MemoryUsage) {
        self.usage = usage
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        resident = Self.kibibytes("VmRSS:", in: status)
        peak = Self.kibibytes("VmHWM:", in: status)
    }

    func report(into report: inout DoctorReport) {
        let files = ItemFile.byteCount(usage.fileBytes)
        // The ratio with two decimals.
        let hundredths = usage.fileBytes > 0 ? usage.total * 100 / usage.fileBytes : 0
        let times = "\(hundredths / 100)." + String(hundredths % 100 + 100).dropFirst()
        report.line(
            "memory",
            "\(usage.items) items, \(files) of files: \(ItemFile.byteCount(usage.total)) held, "
                + "\(Self.perItem(usage.total, usage.items)) an item, "
                + "\(times)x the files")
        let rows: [(String, Int, String)] = [
            ("bytes", usage.bytes, "the files' bytes, in chunks the items share"),
            ("index", usage.index, "the store's ordered tree: each id beside its item's place"),
            ("ids", usage.ids, "ids over 15 bytes, kept apart from the index"),
            ("invalid", usage.invalid, "why files are invalid"),
            ("heads", usage.heads, "the journal's newest entry of each id"),
            ("results", usage.results, "observers' results in a tree of their own"),
        ]
        for (name, bytes, what) in rows {
            report.line(
                "",
                name.padding(toLength: 9) + ItemFile.byteCount(bytes).padding(toLength: 11)
                    + "\(Self.perItem(bytes, usage.items)) an item".padding(toLength: 16) + what)
        }
        if let resident, let peak {
            report.line(
                "process",
                "\(ItemFile.byteCount(resident)) resident, \(ItemFile.byteCount(peak)) at most "
                    + "(this command, loaded as a follower loads the store)")
        }
    }

    /// `bytes` per item, rounded.
    private static func perItem(_ bytes: Int, _ items: Int) -> String {
        "\(items > 0 ? Int((Double(bytes) / Double(items)).rounded()) : 0) B"
    }

    /// The value of `field` in /proc's status text, in bytes.
    private static func kibibytes(_ field: String, in status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kib = Int(
                line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
                    .first ?? "")
        else { return nil }
        return kib * 1024
    }
}
