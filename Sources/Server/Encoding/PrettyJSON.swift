import Service
import FeatureServiceModel
import WebMap

/// `f=pjson`: the same document, indented two spaces per level, members in their order.
enum PrettyJSON {
    static func text(_ value: JSON) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out
    }

    private static func write(_ value: JSON, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += pad
                write(element, indent: indent + 1, to: &out)
                out += index < elements.count - 1 ? ",\n" : "\n"
            }
            out += closing + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, (key, member)) in members.enumerated() {
                out += pad + JSON.string(key).text + ": "
                write(member, indent: indent + 1, to: &out)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += closing + "}"
        default:
            out += value.text
        }
    }
}
