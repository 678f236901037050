import Foundation
import FeatureServiceModel
import WebMap

/// A value bound into, or read out of, the store's SQL: the types both backends (SQLite, PostgreSQL) hold.
/// Booleans are stored as integers 0 and 1 in both, so that SQL such as `isDelete = 0` reads the same.
public enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// A Swift type that binds as a `StoreValue` and reads back from one.
protocol StoreValueConvertible {
    var storeValue: StoreValue { get }
    /// Nil when the value is NULL or of another type.
    init?(storeValue: StoreValue)
}

extension Int64: StoreValueConvertible {
    var storeValue: StoreValue { .integer(self) }
    init?(storeValue: StoreValue) {
        switch storeValue {
        case .integer(let v): self = v
        case .real(let v) where v.rounded() == v && abs(v) < 9.2e18: self = Int64(v)
        default: return nil
        }
    }
}

extension Int: StoreValueConvertible {
    var storeValue: StoreValue { .integer(Int64(self)) }
    init?(storeValue: StoreValue) {
        guard let v = Int64(storeValue: storeValue) else { return nil }
        self = Int(v)
    }
}

extension Bool: StoreValueConvertible {
    var storeValue: StoreValue { .integer(self ? 1 : 0) }
    init?(storeValue: StoreValue) {
        guard let v = Int64(storeValue: storeValue) else { return nil }
        self = v != 0
    }
}

extension Double: StoreValueConvertible {
    var storeValue: StoreValue { .real(self) }
    init?(storeValue: StoreValue) {
        switch storeValue {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
}

extension String: StoreValueConvertible {
    var storeValue: StoreValue { .text(self) }
    init?(storeValue: StoreValue) {
        switch storeValue {
        case .text(let v): self = v
        case .blob(let v): self = String(decoding: v, as: UTF8.self)
        default: return nil
        }
    }
}

extension Data: StoreValueConvertible {
    var storeValue: StoreValue { .blob(self) }
    init?(storeValue: StoreValue) {
        switch storeValue {
        case .blob(let v): self = v
        case .text(let v): self = Data(v.utf8)
        default: return nil
        }
    }
}

extension StoreValue: StoreValueConvertible {
    var storeValue: StoreValue { self }
    init?(storeValue: StoreValue) { self = storeValue }
}
