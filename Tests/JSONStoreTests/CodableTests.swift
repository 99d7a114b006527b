import Foundation
import JSONStore
import TestSupport
import Testing

struct Task: Codable, Equatable, Identifiable {
    enum Status: String, Codable { case todo, doing, done }
    var id: String
    var title: String
    var status: Status
    var priority: Int
    var tags: [String]
    var due: Date?
    var estimate: Double?
}

@Suite("Codable over JSONValue")
struct CodableTests {
    @Test("a typed value encodes in CodingKeys order and decodes back")
    func roundTrip() throws {
        let due = Date(timeIntervalSince1970: 1_795_000_000)
        let task = Task(
            id: "t1", title: "Tea", status: .doing, priority: 2, tags: ["a", "b"], due: due,
            estimate: 0.25)
        let value = try JSONValueEncoder().encode(task)
        #expect(
            value.objectValue?.keys == [
                "id", "title", "status", "priority", "tags", "due", "estimate",
            ])
        #expect(value["due"] == .string("2026-11-18T11:06:40Z"))
        #expect(value["status"] == "doing")
        #expect(try JSONValueDecoder().decode(Task.self, from: value) == task)
    }

    @Test("nil optionals are left out; null and missing decode as nil")
    func optionals() throws {
        let task = Task(
            id: "t", title: "x", status: .todo, priority: 1, tags: [], due: nil, estimate: nil)
        let value = try JSONValueEncoder().encode(task)
        #expect(value["due"] == nil)
        var object = value.objectValue!
        object["due"] = .null
        #expect(try JSONValueDecoder().decode(Task.self, from: .object(object)).due == nil)
    }

    @Test("a mismatch names the member path")
    func errorsNamePath() {
        let value: JSONValue = [
            "id": "t", "title": "x", "status": "todo", "priority": 1, "tags": ["a", 2],
        ]
        do {
            _ = try JSONValueDecoder().decode(Task.self, from: value)
            Issue.record("decoded a number as a string")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(
                context.codingPath.map(\.stringValue) == ["tags", "Index 1"]
                    || context.codingPath.count == 2)
            #expect(context.debugDescription.contains("found number"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("integers: exact values fit, fractions and overflow do not")
    func integers() throws {
        #expect(
            try JSONValueDecoder().decode(Int.self, from: .number(JSONNumber(text: "3e2")!)) == 300)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: 2.5) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: 256) }
        #expect(try JSONValueDecoder().decode(UInt8.self, from: 255) == 255)
    }

    @Test("non-finite doubles cannot be encoded")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.nan]) }
    }

    @Test("dates with fractional seconds and offsets decode")
    func dates() throws {
        let a = try JSONValueDecoder().decode(Date.self, from: "2026-11-29T15:27:36.250Z")
        let b = try JSONValueDecoder().decode(Date.self, from: "2026-11-29T16:27:36.250+01:00")
        #expect(a == b)
        #expect(try JSONValueEncoder().encode(a) == "2026-11-29T15:27:36.250Z")
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Date.self, from: "yesterday")
        }
    }
}
