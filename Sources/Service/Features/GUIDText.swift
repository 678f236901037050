import Foundation

/// GUIDs as the service writes them: braced upper-case `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`; accepted
/// in any case, braced or not.
public enum GUIDText {
    /// The canonical form of `text`, or nil when it is not a GUID.
    public static func normalize(_ text: String) -> String? {
        var body = text.trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("{") && body.hasSuffix("}") { body = String(body.dropFirst().dropLast()) }
        guard let uuid = UUID(uuidString: body) else { return nil }
        return "{" + uuid.uuidString.uppercased() + "}"
    }

    /// A new random GUID in canonical form.
    public static func make() -> String { "{" + UUID().uuidString.uppercased() + "}" }
}
