import Foundation

/// Encodes any `Encodable` value into a `JSON` value (and text), keeping object members in the order the
/// value encodes them. Foundation's `JSONEncoder` on Linux does not keep that order; ArcGIS clients read
/// attributes in field order, so the HTTP face should encode the core's answers with this encoder.
///
/// ```swift
/// let body = try OrderedJSONEncoder().encodeText(try await core.query(...))
/// ```
public struct OrderedJSONEncoder: Sendable {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSON {
        let root = EncodingNode()
        try EncodingNode.encode(value, into: root, path: [])
        return root.json
    }

    /// Compact JSON text.
    public func encodeText(_ value: some Encodable) throws -> String { try encode(value).text }

    /// UTF-8 JSON bytes.
    public func encodeData(_ value: some Encodable) throws -> Data { Data(try encodeText(value).utf8) }
}

final class EncodingNode {
    enum Kind {
        case empty
        case scalar(JSON)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    var kind: Kind = .empty

    var json: JSON {
        switch kind {
        case .empty: return .object([])
        case .scalar(let value): return value
        case .object(let members): return .object(members.map { ($0.0, $0.1.json) })
        case .array(let elements): return .array(elements.map(\.json))
        }
    }

    static func encode(_ value: some Encodable, into node: EncodingNode, path: [any CodingKey]) throws {
        switch value {
        case let json as JSON: node.kind = .scalar(json)
        case let b as Bool: node.kind = .scalar(.bool(b))
        case let s as String: node.kind = .scalar(.string(s))
        case let i as Int: node.kind = .scalar(.int(i))
        case let i as Int64: node.kind = .scalar(.int(Int(i)))
        case let i as Int32: node.kind = .scalar(.int(Int(i)))
        case let d as Double: node.kind = .scalar(d.isFinite ? .double(d) : .null)
        case let f as Float: node.kind = .scalar(f.isFinite ? .double(Double(f)) : .null)
        case let data as Data: node.kind = .scalar(.string(data.base64EncodedString()))
        case let url as URL: node.kind = .scalar(.string(url.absoluteString))
        default: try value.encode(to: NodeEncoder(node: node, codingPath: path))
        }
    }

    // Both appends first take the collection out of `kind` (setting it to `.empty`), so that the collection
    // is uniquely referenced and grows in place: appending while `kind` still holds it copied every element
    // before it, which made a 44,000-id `returnIdsOnly` answer take 11 s.

    func append(key: String, _ child: EncodingNode) {
        if case .object(var members) = kind {
            kind = .empty
            if let index = members.lastIndex(where: { $0.0 == key }) { members[index].1 = child } else { members.append((key, child)) }
            kind = .object(members)
        } else {
            kind = .object([(key, child)])
        }
    }

    func append(_ child: EncodingNode) {
        if case .array(var elements) = kind {
            kind = .empty
            elements.append(child)
            kind = .array(elements)
        } else {
            kind = .array([child])
        }
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else { node.kind = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.kind {} else { node.kind = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        let child = EncodingNode()
        child.kind = .scalar(.null)
        node.append(key: key.stringValue, child)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = EncodingNode()
        try EncodingNode.encode(value, into: child, path: codingPath + [key])
        node.append(key: key.stringValue, child)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(value as Bool?, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encode(value as String?, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encode(value as Double?, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value) as Double?, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encode(value as Int?, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(Int(clamping: value) as Int?, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value) as Int?, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(Int(clamping: value) as Int?, key) }

    private mutating func encode<T: Encodable>(_ value: T?, _ key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.kind = .object([])
        node.append(key: key.stringValue, child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.kind = .array([])
        node.append(key: key.stringValue, child)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        node.append(key: "super", child)
        return NodeEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        node.append(key: key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = node.kind { return elements.count }
        return 0
    }

    mutating func encodeNil() throws {
        let child = EncodingNode()
        child.kind = .scalar(.null)
        node.append(child)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = EncodingNode()
        try EncodingNode.encode(value, into: child, path: codingPath + [IndexKey(count)])
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.kind = .object([])
        node.append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [IndexKey(count - 1)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.kind = .array([])
        node.append(child)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [IndexKey(count - 1)])
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        node.append(child)
        return NodeEncoder(node: child, codingPath: codingPath)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.kind = .scalar(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try EncodingNode.encode(value, into: node, path: codingPath) }
    mutating func encode(_ value: Bool) throws { node.kind = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { node.kind = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { node.kind = .scalar(value.isFinite ? .double(value) : .null) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { node.kind = .scalar(.int(value)) }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(Int(clamping: value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(Int(clamping: value)) }
}
