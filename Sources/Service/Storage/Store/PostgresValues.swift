import Foundation
import NIOCore
import PostgresNIO
import FeatureServiceModel
import WebMap

/// Turning PostgreSQL's answers into `StoreValue`s, and the store's `?` placeholders into PostgreSQL's `$n`.
///
/// Written here rather than through PostgresNIO's `decode`: the store reads columns whose type only the
/// answer tells (an expression, an aggregate), so one switch over the column's type serves every read.
enum PostgresValues {
    static func isText(_ type: PostgresDataType) -> Bool {
        type == .text || type == .varchar || type == .bpchar || type == .name || type == .json || type == .jsonb
    }

    static func value(_ cell: PostgresCell) -> StoreValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .text {
            let text = bytes.readString(length: bytes.readableBytes) ?? ""
            switch cell.dataType {
            case .int2, .int4, .int8: return Int64(text).map(StoreValue.integer) ?? .text(text)
            case .float4, .float8, .numeric: return Double(text).map(StoreValue.real) ?? .text(text)
            case .bool: return .integer(text == "t" ? 1 : 0)
            default: return .text(text)
            }
        }
        switch cell.dataType {
        case .int8: return bytes.readInteger(as: Int64.self).map(StoreValue.integer) ?? .null
        case .int4: return bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) } ?? .null
        case .int2: return bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) } ?? .null
        case .float8: return bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) } ?? .null
        case .float4: return bytes.readInteger(as: UInt32.self).map { .real(Double(Float(bitPattern: $0))) } ?? .null
        case .bool: return .integer(bytes.readInteger(as: UInt8.self) == 0 ? 0 : 1)
        case .bytea: return .blob(Data(bytes.readableBytesView))
        case .jsonb:
            bytes.moveReaderIndex(forwardBy: 1)
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        case .numeric:
            if let decimal = try? cell.decode(Decimal.self) { return .real(NSDecimalNumber(decimal: decimal).doubleValue) }
            return .null
        default:
            if let text = try? cell.decode(String.self) { return .text(text) }
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        }
    }
}

/// `?` → `$1`, `$2`... outside quoted literals, identifiers and comments; with `casts`, the n-th placeholder is
/// followed by `casts[n - 1]` (`::int8`, or nothing).
enum PostgresPlaceholders {
    static func numbered(_ sql: String, casts: [String]? = nil) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                out.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                out.append(character)
            case "?":
                number += 1
                out += "$\(number)"
                if let casts, number <= casts.count { out += casts[number - 1] }
            default:
                out.append(character)
            }
        }
        return out
    }
}

/// Reading `postgres://user:password@host:port/database` (also `postgresql://`, and `?host=/socket/dir` for a
/// Unix socket, as libpq reads it).
enum PostgresURL {
    static func configuration(_ text: String) throws -> PostgresConnection.Configuration {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql" else {
            throw ServiceError.invalidParameter("'\(redacted(text))' is not a PostgreSQL URL (postgres://user:password@host:port/database).")
        }
        let user = components.percentEncodedUser?.removingPercentEncoding ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        let password = components.percentEncodedPassword?.removingPercentEncoding
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        let socketFolder = components.queryItems?.first { $0.name == "host" }?.value
        if let socketFolder, socketFolder.hasPrefix("/") {
            let port = components.port ?? 5432
            return .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password,
                         database: database.isEmpty ? nil : database)
        }
        return .init(host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost", port: components.port ?? 5432,
                     username: user, password: password, database: database.isEmpty ? nil : database, tls: .disable)
    }

    /// The URL without its password, for messages.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}

/// A PostgreSQL URL as it may be printed: the password replaced by `***`.
public enum PostgresURLText {
    public static func redacted(_ text: String) -> String { PostgresURL.redacted(text) }
}
