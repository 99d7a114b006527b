import Glibc
import JSONStore

extension SchemaCommand {
    /// `schema validate SCHEMA [FILE|-]...`: every document checked; exit 1 when one is
    /// not valid, 64 when the schema is not one.
    func validate() throws {
        let schemaFile = files[0]
        let schema: JSONSchema
        do {
            let bytes = try InputFile.read(schemaFile == "-" ? nil : schemaFile, limit: 16 << 20)
            schema = try JSONSchema(json: bytes, file: schemaFile, assertingFormat: assertingFormat)
        } catch {
            for line in SchemaWords.lines(of: error) { Output.error(line) }
            throw ExitCode.usage
        }
        var documents = Array(files.dropFirst())
        if documents.isEmpty { documents = ["-"] }
        if documents.filter({ $0 == "-" }).count > 1
            || (schemaFile == "-" && documents.contains("-"))
        {
            throw UsageError("standard input (-) can be read once", command: "schema")
        }
        var allValid = true
        for file in documents {
            let shown = file == "-" ? "<stdin>" : file
            let bytes = try InputFile.read(file == "-" ? nil : file, limit: 1 << 30)
            let violations: [SchemaViolation]
            do {
                violations = try schema.validate(json: bytes, reader: JSONReader(maxSize: 1 << 30))
            } catch {
                allValid = false
                let syntax = StoreError(
                    code: .invalidJSON, message: "not JSON: \(error.reason)", file: shown,
                    line: error.line, column: error.column)
                report(file: shown, violations: [], syntax: syntax)
                continue
            }
            if !violations.isEmpty { allValid = false }
            report(file: shown, violations: violations, syntax: nil)
        }
        if !allValid { throw ExitCode.failure }
    }

    /// One document's result: its errors as lines, or as one JSON line.
    private func report(file: String, violations: [SchemaViolation], syntax: StoreError?) {
        guard json else {
            if let syntax { return Output.line(syntax.description) }
            return Output.lines(violations.map { SchemaWords.line($0, file: file, keyword: true) })
        }
        var object: JSONObject = [
            "file": .string(file), "valid": .bool(violations.isEmpty && syntax == nil),
        ]
        if let syntax {
            object["syntax"] = .string(syntax.message)
            if let line = syntax.line { object["line"] = .number(JSONNumber(line)) }
            if let column = syntax.column { object["column"] = .number(JSONNumber(column)) }
        }
        object["errors"] = .array(violations.map(SchemaWords.json))
        Output.line(
            String(
                decoding: JSONWriter.compact(.object(object), escapingUnicodeLineBreaks: true),
                as: UTF8.self))
    }

    /// `document` with its mode keyword set to `mode` (`strict`: removed), pretty-printed
    /// again; as it is when it says so already, or is not an object (setting it says why).
    static func document(_ document: [UInt8], mode: String, file: String) throws -> [UInt8] {
        guard case .object(var object)? = try? JSONReader().read(document) else {
            return document
        }
        let current = object[StoreSchema.modeKeyword]
        if current == .string(mode) || (current == nil && mode == "strict") { return document }
        if mode == "strict" {
            object.removeValue(forKey: StoreSchema.modeKeyword)
        } else {
            object[StoreSchema.modeKeyword] = .string(mode)
        }
        return JSONWriter.pretty(.object(object))
    }

    /// Prints a schema document: as it is, unless a terminal would interpret some of it.
    static func show(_ document: [UInt8]) {
        let text = String(decoding: document, as: UTF8.self)
        guard Output.isTerminal(STDOUT_FILENO) else { return Output.out(text) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        Output.out(lines.map { Display.escaped(String($0)) }.joined(separator: "\n"))
    }
}
