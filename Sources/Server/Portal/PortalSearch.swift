import Foundation

/// A small reading of the portal's search syntax (`q`), enough for clients that look items up:
/// free words (in the title, tags or id), `field:value` and `field:"quoted value"` terms for `id`,
/// `title`, `type`, `owner`, `tags`, `accountid` / `orgid`, `NOT` before a term, parentheses, and
/// `AND` / `OR` (read as AND: every positive term must match). Unknown fields match everything.
struct PortalSearch {
    struct Term {
        var field: String?
        var value: String
        var negated: Bool
    }

    let terms: [Term]

    init(_ query: String) {
        var terms: [Term] = []
        var negateNext = false
        var index = query.startIndex
        func readValue() -> String {
            if index < query.endIndex, query[index] == "\"" {
                let start = query.index(after: index)
                let end = query[start...].firstIndex(of: "\"") ?? query.endIndex
                index = end < query.endIndex ? query.index(after: end) : end
                return String(query[start..<end])
            }
            var token = ""
            while index < query.endIndex, !query[index].isWhitespace, query[index] != ")", query[index] != "(" {
                if query[index] == "\"" {
                    // field:"quoted value"
                    let start = query.index(after: index)
                    let end = query[start...].firstIndex(of: "\"") ?? query.endIndex
                    token += query[start..<end]
                    index = end < query.endIndex ? query.index(after: end) : end
                    continue
                }
                token.append(query[index])
                index = query.index(after: index)
            }
            return token
        }
        while index < query.endIndex {
            let c = query[index]
            if c.isWhitespace || c == "(" || c == ")" || c == "+" { index = query.index(after: index); continue }
            var field: String?
            var value = readValue()
            if let colon = value.firstIndex(of: ":") {
                field = value[..<colon].lowercased()
                let rest = value[value.index(after: colon)...]
                if rest.isEmpty { value = readValue() } else { value = String(rest) }
            }
            if field == nil {
                switch value.uppercased() {
                case "AND", "OR": continue
                case "NOT": negateNext = true; continue
                default: break
                }
            }
            terms.append(Term(field: field, value: value.trimmingCharacters(in: CharacterSet(charactersIn: "*")), negated: negateNext))
            negateNext = false
        }
        self.terms = terms
    }

    func matches(id: String, title: String, type: String, owner: String, tags: [String], orgId: String) -> Bool {
        terms.allSatisfy { term in
            let value = term.value.lowercased()
            let hit: Bool
            switch term.field {
            case nil:
                hit = value.isEmpty || title.lowercased().contains(value) || tags.contains { $0.lowercased().contains(value) } || id.lowercased() == value
            case "id": hit = id.lowercased() == value
            case "title": hit = title.lowercased().contains(value)
            case "type": hit = type.lowercased() == value
            case "owner": hit = owner.lowercased() == value
            case "tags": hit = tags.contains { $0.lowercased() == value }
            case "accountid", "orgid": hit = orgId.lowercased() == value
            default: hit = true
            }
            return term.negated ? !hit : hit
        }
    }
}
