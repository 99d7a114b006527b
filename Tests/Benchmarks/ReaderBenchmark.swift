import Foundation
import JSONStore

// The reader on generated documents of every shape, at doubling lengths: its time per
// length (linear reading: each doubling at most doubles the time, +25 %) and its speed
// against Foundation's JSONSerialization on the same bytes, runs alternating.

/// A generated document shape: `make(n)` is a document whose main array or object has n
/// elements or members.
struct DocumentShape: Sendable {
    let name: String
    let make: @Sendable (Int) -> [UInt8]

    static let all: [DocumentShape] = [
        DocumentShape(name: "numbers") { n in  // coordinate pairs, as in a mesh or a track
            var text = "["
            for i in 0..<n / 2 {
                if i > 0 { text += "," }
                text += "[\(Double(i % 36_000) / 100.123),-\(Double(i % 9_000) * 0.0371)]"
            }
            return Array((text + "]").utf8)
        },
        DocumentShape(name: "strings") { n in  // escapes and non-ASCII
            let words = [
                #""plain words here""#, #""tab\there \"quoted\" \\ back""#,
                #""café naïve 日本語 ✓""#, #""line\nbreak \u00e9\ud83d\ude00""#,
            ]
            return Array(("[" + (0..<n).map { words[$0 % 4] }.joined(separator: ",") + "]").utf8)
        },
        DocumentShape(name: "members") { n in  // one wide object
            Array(
                ("{" + (0..<n).map { "\"key\($0)\":\($0 % 1000)" }.joined(separator: ",") + "}")
                    .utf8)
        },
        DocumentShape(name: "deep") { n in  // nesting in every element
            let one = #"{"a":{"b":{"c":[1,{"d":[null,[true,[false]]]}]}}}"#
            return Array(
                ("[" + Array(repeating: one, count: n / 8).joined(separator: ",") + "]").utf8)
        },
    ]
}

func benchReader(maxLength: Int, runs: Int) throws {
    let reader = JSONReader(maxSize: .max)
    var lengths: [Int] = []
    var length = 1000
    while length <= maxLength {
        lengths.append(length)
        length *= 2
    }
    print("shape     length      bytes   JSONReader  per doubling  JSONSerialization  faster")
    for shape in DocumentShape.all {
        var previous: Double?
        var first: Double?
        var slowest = Double.infinity  // the lowest ratio to JSONSerialization
        for length in lengths {
            let bytes = shape.make(length)
            let data = Data(bytes)
            var ours: [Double] = []
            var foundation: [Double] = []
            for _ in 0..<runs {
                var t = now()
                _ = try reader.read(bytes)
                ours.append(now() - t)
                t = now()
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                foundation.append(now() - t)
            }
            let growth = previous.map { String(format: "%.2fx", median(ours) / $0) } ?? "-"
            print(
                shape.name.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + String(
                        format: "%9d %10d %10.3f ms %12@ %14.3f ms %7.2fx",
                        length, bytes.count, median(ours) * 1000, growth,
                        median(foundation) * 1000, median(foundation) / median(ours)))
            previous = median(ours)
            first = first ?? median(ours)
            slowest = min(slowest, median(foundation) / median(ours))
        }
        if let first, let last = previous, lengths.count > 1 {
            let perDoubling = pow(last / first, 1 / Double(lengths.count - 1))
            tableRow(
                "reader, \(shape.name), \(lengths.first!) -> \(lengths.last!)",
                String(format: "%.3f ms -> %.3f ms", first * 1000, last * 1000),
                String(format: "%.2fx a doubling", perDoubling), "<= 2.5x", perDoubling <= 2.5)
            tableRow(
                "reader, \(shape.name), against JSONSerialization", "every length",
                String(format: "%.2fx at worst", slowest), ">= 1.5x", slowest >= 1.5)
        }
    }
    // The largest item the store accepts, of each shape.
    let limit = JSONReader().maxSize
    for shape in DocumentShape.all {
        var length = 1000
        while shape.make(length * 2).count <= limit { length *= 2 }
        let bytes = shape.make(length)
        var times: [Double] = []
        for _ in 0..<runs {
            let t = now()
            _ = try JSONReader().read(bytes)
            times.append(now() - t)
        }
        print(
            String(
                format: "%@: a %.1f MiB item reads in median %.3f s (min %.3f, max %.3f)",
                shape.name, Double(bytes.count) / 1_048_576, median(times),
                times.min()!, times.max()!))
    }
}
