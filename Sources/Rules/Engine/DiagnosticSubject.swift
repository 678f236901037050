import WebMap

/// What a diagnostic is about, written so that it survives reformatting the file, reordering its layers
/// (or fields) and moving it: the JSON pointer with every array index replaced by the identity of the element
/// it selects, then a digest of the value when that is a string, number or boolean. Baselines fingerprint it.
///
///     /operationalLayers/3/popupInfo/fieldInfos/1/fieldName  ("Conditon")
///     operationalLayers[id=Trees_1234]/popupInfo/fieldInfos[fieldName=Conditon]/fieldName=1f3a0c9be2d4a771
///
/// An element's identity is the first of its members `id`, `fieldName`, `name`, `title`, `url`, `type` that
/// is a string or an integer (a layer by its id, else its title, else its URL; a pop-up field by its name);
/// an element with none of them keeps its index.
public enum DiagnosticSubject {
    static let identityKeys = ["id", "fieldName", "name", "title", "url", "type"]

    /// The subject of the value at `pointer` in `root`; with `about`, the subject of that part of the value
    /// (`.../expression#Conditon`) instead of a digest of all of it.
    public static func describe(_ pointer: JSONPointer, in root: JSONNode, about: String? = nil) -> String {
        var out = ""
        var node: JSONNode? = root
        for token in pointer.tokens {
            switch node?.value {
            case .array(let elements)?:
                if let index = Int(token), elements.indices.contains(index) {
                    out += "[" + identity(of: elements[index], index: index) + "]"
                    node = elements[index]
                } else {
                    out += "[" + token + "]"
                    node = nil
                }
            case .object(let object)?:
                out += (out.isEmpty ? "" : "/") + JSONPointer.escape(token)
                node = object[token]
            default:
                out += "/" + JSONPointer.escape(token)
                node = nil
            }
        }
        if let about { return out + "#" + about }
        switch node?.value {
        case .string(let s)?: out += "=" + digest(s)
        case .number(let n)?: out += "=" + (n.int.map { String($0) } ?? String(n.double))
        case .bool(let b)?: out += "=" + String(b)
        default: break
        }
        return out
    }

    /// The subject of a diagnostic about a file that did not parse: its pointer and a digest of its message.
    public static func describe(_ pointer: JSONPointer, message: String) -> String {
        pointer.description + "#" + digest(message)
    }

    private static func identity(of element: JSONNode, index: Int) -> String {
        guard let object = element.object else { return String(index) }
        for key in identityKeys {
            guard let value = object[key] else { continue }
            if let s = value.string { return key + "=" + s }
            if let i = value.integer { return key + "=" + String(i) }
        }
        return String(index)
    }

    /// 64-bit FNV-1a of the text's UTF-8, in hex: short, stable across runs and platforms (unlike `Hasher`).
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
