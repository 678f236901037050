import WebMap

/// The checks a form makes on a field element's value (forms.md, "Runtime"), beside those of the service: a
/// required element must have a value, a text input's length must be within `minLength`...`maxLength`, and a
/// value must be in the element's own domain (the field's domain is the service's to enforce).
public enum FormValidation {
    public static let required = "runtime/form-required"
    public static let length = "runtime/form-length"
    public static let domain = "runtime/form-domain"

    static func errors(of value: JSON, in element: FormFieldElement, required isRequired: Bool) -> [FormProblem] {
        let name = element.fieldName
        let empty = value.isNull || value.string?.isEmpty == true
        if empty {
            return isRequired ? [FormProblem(id: required, message: "'\(element.label)' (\(name)) is required: give it a value.",
                                             expression: nil, fieldName: name)] : []
        }
        var found: [FormProblem] = []
        if let input = element.element.inputType, input.isText, let text = value.string {
            let count = text.count
            if let min = input.minLength, count < min {
                found.append(FormProblem(id: length, message: "'\(element.label)' (\(name)) needs at least \(min) characters; it has \(count).",
                                         expression: nil, fieldName: name))
            }
            if let max = input.maxLength, count > max {
                found.append(FormProblem(id: length, message: "'\(element.label)' (\(name)) takes at most \(max) characters; it has \(count).",
                                         expression: nil, fieldName: name))
            }
        }
        switch element.element.domain {
        case .codedValue(_, let codes)?:
            if !codes.contains(where: { JSON($0.code) == value }) {
                found.append(FormProblem(id: domain, message: "'\(element.label)' (\(name)) is \(value.text), which is not one of the form's "
                                         + "choices (" + codes.map { JSON($0.code).text }.joined(separator: ", ") + ").",
                                         expression: nil, fieldName: name))
            }
        case .range(_, let min, let max)?:
            if let number = value.double, (min.map { number < $0 } ?? false) || (max.map { number > $0 } ?? false) {
                found.append(FormProblem(id: domain, message: "'\(element.label)' (\(name)) is \(value.text), outside the form's range "
                                         + "\(min.map { JSON.double($0).text } ?? "") to \(max.map { JSON.double($0).text } ?? "").",
                                         expression: nil, fieldName: name))
            }
        default:
            break
        }
        return found
    }
}
