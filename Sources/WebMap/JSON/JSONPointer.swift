/// An RFC 6901 JSON Pointer, built up token by token as views descend into a document.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, Comparable {
    public private(set) var tokens: [String]

    public init(_ tokens: [String] = []) { self.tokens = tokens }

    /// Parses "/a/b~1c/0" (the empty string is the root).
    public init?(parsing text: String) {
        if text.isEmpty { self.init(); return }
        guard text.hasPrefix("/") else { return nil }
        self.init(text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        })
    }

    public static let root = JSONPointer()

    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// The pointer with `key` and then `index` appended ("/fieldInfos/3"), made with one allocation rather
    /// than one per token: views build such pointers for every entry of every list they read.
    public func appending(_ key: String, _ index: Int) -> JSONPointer {
        appending(components: key, String(index))
    }

    /// The pointer with each of `components` appended, in order, made with one allocation.
    public func appending(components: String...) -> JSONPointer {
        var result: [String] = []
        result.reserveCapacity(tokens.count + components.count)
        result.append(contentsOf: tokens)
        result.append(contentsOf: components)
        return JSONPointer(result)
    }

    public static func / (lhs: JSONPointer, rhs: String) -> JSONPointer { lhs.appending(rhs) }
    public static func / (lhs: JSONPointer, rhs: Int) -> JSONPointer { lhs.appending(rhs) }

    public var description: String {
        var out = ""
        for token in tokens {
            out += "/"
            out += Self.escape(token)
        }
        return out
    }

    /// `token` with `~` written `~0` and `/` written `~1` (RFC 6901); most tokens have neither.
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.description < rhs.description }

    /// The node this pointer names inside `root`, or nil.
    public func resolve(in root: JSONNode) -> JSONNode? {
        var node = root
        for token in tokens {
            switch node.value {
            case .object(let object):
                guard let next = object[token] else { return nil }
                node = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                node = elements[index]
            default:
                return nil
            }
        }
        return node
    }
}
