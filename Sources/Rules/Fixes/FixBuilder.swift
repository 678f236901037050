import WebMap

/// Makes the fixes rules attach to their diagnostics: each a JSON Patch plus the minimal text edit that does
/// the same to the file. The edit touches only the value concerned: a replaced value's own bytes, a removed
/// array element with the comma that separated it, or an added member written after an existing one in the
/// object's own style (the separator and indentation between its members, the spacing around its colons).
/// Every builder answers nil when the text in the file is not what it expects (it never guesses).
struct FixBuilder {
    let source: SourceText

    init(_ source: SourceText) { self.source = source }

    private var bytes: [UInt8] { source.bytes }

    private func edit(_ range: Range<Int>, _ text: String) -> TextEdit {
        TextEdit(offset: range.lowerBound, length: range.count, text: text,
                 start: source.position(ofOffset: range.lowerBound), end: source.position(ofOffset: range.upperBound))
    }

    /// Replaces the value `node` (at `pointer`) by `value`.
    func replace(_ node: JSONNode, at pointer: JSONPointer, with value: PatchValue, description: String) -> Fix? {
        guard let end = JSONSourceRanges.end(ofValueAt: node.offset, in: bytes), end > node.offset else { return nil }
        return Fix(description: description,
                   patch: [PatchOperation(op: .replace, path: pointer.description, value: value)],
                   edits: [edit(node.offset..<end, value.jsonText)])
    }

    /// Removes element `index` of `array` (the array at `arrayPointer`) with the comma that separates it: up
    /// to the next element when there is one (the removed element's indentation then serves the next), else
    /// from the end of the previous one.
    func remove(element index: Int, of array: [JSONNode], at arrayPointer: JSONPointer, description: String) -> Fix? {
        guard array.indices.contains(index), let end = JSONSourceRanges.end(ofValueAt: array[index].offset, in: bytes) else { return nil }
        let range: Range<Int>
        if index + 1 < array.count {
            range = array[index].offset..<array[index + 1].offset
        } else if index > 0, let previousEnd = JSONSourceRanges.end(ofValueAt: array[index - 1].offset, in: bytes) {
            range = previousEnd..<end
        } else {
            range = array[index].offset..<end
        }
        return Fix(description: description,
                   patch: [PatchOperation(op: .remove, path: (arrayPointer / index).description)],
                   edits: [edit(range, "")])
    }

    /// Adds the member `key: value` to `object` (at `objectPointer`) right after its member `after`, written
    /// as the object's other members are: the same separator between members (`, ` on one line, or a comma,
    /// a line break and the members' indentation) and the same text between key and value.
    func add(_ key: String, _ value: PatchValue, to object: JSONNode, at objectPointer: JSONPointer, after previousKey: String,
             description: String) -> Fix? {
        guard let members = object.object?.members, let position = members.lastIndex(where: { $0.key == previousKey }),
              let previousValueEnd = JSONSourceRanges.end(ofValueAt: members[position].value.offset, in: bytes),
              let keyEnd = JSONSourceRanges.endOfString(at: members[position].keyOffset, in: bytes),
              keyEnd <= members[position].value.offset else { return nil }
        let colon = String(decoding: bytes[keyEnd..<members[position].value.offset], as: UTF8.self)
        // The separator: what lies between this member and the next (or the previous and this one), from the
        // comma to the next key.
        var separator = ", "
        let neighbour: (Int, Int)? = position + 1 < members.count ? (position, position + 1) : (position > 0 ? (position - 1, position) : nil)
        if let pair = neighbour, let aEnd = JSONSourceRanges.end(ofValueAt: members[pair.0].value.offset, in: bytes),
           aEnd <= members[pair.1].keyOffset {
            let between = String(decoding: bytes[aEnd..<members[pair.1].keyOffset], as: UTF8.self)
            if let comma = between.firstIndex(of: ","), between[between.index(after: comma)...].allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
                separator = String(between[comma...])
            }
        } else if let a = members.indices.first, a == position {
            // The only member: on its own line when the object spreads over lines.
            let before = String(decoding: bytes[(object.offset + 1)..<members[a].keyOffset], as: UTF8.self)
            if let newline = before.lastIndex(where: { $0 == "\n" || $0 == "\r\n" }) {
                separator = "," + String(before[newline...])
            }
        }
        let text = separator + JSONText.string(key) + colon + value.jsonText
        return Fix(description: description,
                   patch: [PatchOperation(op: .add, path: (objectPointer / key).description, value: value)],
                   edits: [edit(previousValueEnd..<previousValueEnd, text)])
    }

    /// The string at `node` as written in the file equals `value` (no `{{ }}` substitution changed it).
    func isVerbatim(_ node: JSONNode, _ value: String) -> Bool {
        guard let decoded = JSONSourceRanges.decodedString(at: node.offset, in: bytes) else { return false }
        return decoded.scalars.elementsEqual(value.unicodeScalars)
    }
}

extension MapContext {
    /// Makes fixes against this file's text.
    var fixes: FixBuilder { FixBuilder(document.source) }
}
