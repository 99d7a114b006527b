import Foundation
import JSONStore

// Typed decoding, as a library user gets it: the bytes of an item read and decoded into a
// Codable struct. The store's road (the bytes checked into a tape and decoded from it,
// `JSONValueDecoder.decode(_:fromJSON:[UInt8])`) against Foundation's JSONDecoder on the same
// bytes, alternating, on many small items and on one large document (all the items in
// one array); and the road before the tape (a `JSONValue` read, then decoded) beside them.

func benchDecode(count: Int, runs: Int) throws {
    let documents: [[UInt8]] = (0..<count).map { i in
        var object = item(i)
        object["id"] = .string(String(format: "item-%06d", i))
        return JSONWriter.pretty(.object(object))
    }
    let datas = documents.map { Data($0) }
    let large = JSONWriter.compact(.array(documents.map { try! JSONReader().read($0) }))
    let largeData = Data(large)

    var ours: [Double] = []
    var throughValues: [Double] = []
    var foundation: [Double] = []
    var oursLarge: [Double] = []
    var foundationLarge: [Double] = []
    for _ in 0..<runs {
        var t = now()
        var total = 0
        for bytes in documents {
            total += try JSONValueDecoder().decode(BenchTask.self, fromJSON: bytes).priority
        }
        ours.append(now() - t)
        t = now()
        var total1 = 0
        for bytes in documents {
            total1 += try JSONValueDecoder().decode(BenchTask.self, from: JSONReader().read(bytes))
                .priority
        }
        throughValues.append(now() - t)
        t = now()
        var total2 = 0
        let decoder = JSONDecoder()
        for data in datas { total2 += try decoder.decode(BenchTask.self, from: data).priority }
        foundation.append(now() - t)
        precondition(total == total2 && total1 == total)

        t = now()
        let a = try JSONValueDecoder().decode(
            [BenchTask].self, fromJSON: large, reader: JSONReader(maxSize: .max))
        oursLarge.append(now() - t)
        t = now()
        let b = try JSONDecoder().decode([BenchTask].self, from: largeData)
        foundationLarge.append(now() - t)
        precondition(a.count == b.count)
    }
    let mb = Double(documents.reduce(0) { $0 + $1.count }) / 1e6
    print("items: \(count) (\(String(format: "%.1f", mb)) MB), runs: \(runs)")
    print(spread("small items, JSONValueDecoder from the bytes (tape)", ours, unit: "s"))
    print(
        spread("small items, JSONReader + JSONValueDecoder (a JSONValue)", throughValues, unit: "s")
    )
    print(spread("small items, Foundation JSONDecoder", foundation, unit: "s"))
    print(
        String(
            format: "typed decoding vs JSONDecoder, small items: %.2fx faster",
            median(foundation) / median(ours)))
    print(
        spread(
            "one array of \(count) items (\(String(format: "%.1f", Double(large.count) / 1e6)) MB), ours",
            oursLarge, unit: "s"))
    print(spread("one array, Foundation JSONDecoder", foundationLarge, unit: "s"))
    print(
        String(
            format: "typed decoding vs JSONDecoder, one large document: %.2fx faster",
            median(foundationLarge) / median(oursLarge)))
    let small = median(foundation) / median(ours)
    let whole = median(foundationLarge) / median(oursLarge)
    tableRow(
        "typed decode, \(count) small items", spreadText(ours),
        String(format: "%.2fx JSONDecoder", small),
        ">= 2x", small >= 2)
    tableRow(
        "typed decode, one array of \(count)", spreadText(oursLarge),
        String(format: "%.2fx JSONDecoder", whole),
        ">= 1x", whole >= 1)
}

/// `name: median X (min-max)`, in seconds or milliseconds.
func spread(_ name: String, _ values: [Double], unit: String) -> String {
    let scale = unit == "ms" ? 1000.0 : 1.0
    let sorted = values.sorted()
    return String(
        format: "%@: median %.3f %@ (%.3f-%.3f)", name, median(values) * scale, unit,
        sorted.first! * scale, sorted.last! * scale)
}
