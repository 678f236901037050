import Foundation
import WebMap

/// Reading JSON that a client sent or a file holds, failing as the service answers bad input: code 400 with the
/// place of the syntax error.
extension JSON {
    /// Parses JSON text (a request parameter, a stored column) with WebMap's parser.
    public static func parse(_ text: String) throws -> JSON {
        // Every member kept: the parser's default sets aside large `features` arrays (for linting huge inline
        // feature sets), which in a protocol message (a replica's data, a query answer) would lose rows.
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        do {
            let parsed = try JSONParser.parse(SourceText(string: text), options: options)
            return JSON(parsed.root, noRepeatedKeys: parsed.duplicateKeys.isEmpty)
        } catch {
            throw ServiceError.invalidParameter("not valid JSON at character \(error.offset): \(error.message)")
        }
    }

    /// Parses a JSON file's bytes, reporting a syntax error at its line and column.
    public static func parse(fileBytes bytes: [UInt8]) throws -> JSON {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        let source = SourceText(bytes: bytes)
        do {
            let parsed = try JSONParser.parse(source, options: options)
            return JSON(parsed.root, noRepeatedKeys: parsed.duplicateKeys.isEmpty)
        } catch {
            let position = source.position(ofOffset: error.offset)
            throw ServiceError.invalidParameter("not valid JSON at line \(position.line), column \(position.column): \(error.message)")
        }
    }
}
