import WebMap

extension FixBuilder {
    /// `form/nested-group`'s fix: the inner group `group` replaced, in the list that holds it, by its own
    /// elements. The text edit puts the text of those elements (as written, between the inner list's brackets)
    /// where the group was; the patch removes the group and adds each element at its place. Nil when the file
    /// is not as expected.
    func liftGroup(_ group: FormElement, in root: JSONNode) -> Fix? {
        let listPointer = JSONPointer(Array(group.pointer.tokens.dropLast()))
        guard let index = group.pointer.tokens.last.flatMap({ Int($0) }), listPointer.resolve(in: root)?.array != nil,
              let end = JSONSourceRanges.end(ofValueAt: group.node.offset, in: source.bytes), end > group.node.offset else { return nil }
        let children = group.node["formElements"]?.array ?? []
        var text = ""
        if let first = children.first, let last = children.last, let lastEnd = JSONSourceRanges.end(ofValueAt: last.offset, in: source.bytes),
           lastEnd > first.offset {
            text = String(decoding: source.bytes[first.offset..<lastEnd], as: UTF8.self)
        }
        var patch = [PatchOperation(op: .remove, path: (listPointer / index).description)]
        for (offset, child) in children.enumerated() {
            patch.append(PatchOperation(op: .add, path: (listPointer / (index + offset)).description, value: .json(JSON(child))))
        }
        let description = "Lift the elements of group '\(group.label ?? "")' into the group that holds it."
        if text.isEmpty {
            // An empty inner group: removing it is the whole fix.
            guard let list = listPointer.resolve(in: root)?.array else { return nil }
            return remove(element: index, of: list, at: listPointer, description: description)
        }
        let edit = TextEdit(offset: group.node.offset, length: end - group.node.offset, text: text,
                            start: source.position(ofOffset: group.node.offset), end: source.position(ofOffset: end))
        return Fix(description: description, patch: patch, edits: [edit])
    }
}
