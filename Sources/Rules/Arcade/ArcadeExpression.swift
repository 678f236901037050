import Foundation
import Arcade
import WebMap

/// One Arcade expression of a pop-up (`popupInfo.expressionInfos[i].expression`) or of a form
/// (`formInfo.expressionInfos[i].expression`), parsed and tokenized once per file for the arcade/ rules, with
/// the profile it runs in and the way back from a position in the expression to the file.
final class ArcadeExpression {
    let layer: LayerBehavior
    /// The `expressionInfos` entry.
    let entry: Entry
    /// The pointer of the `expressionInfos` entry.
    var infoPointer: JSONPointer { entry.pointer }
    /// The entry's `name`.
    var name: String? { entry.name }
    /// Where it runs: `popup` for pop-up expressions; `form-constraint` or `form-calculation` for a form's, by
    /// the use its elements make of it.
    let profile: ArcadeProfile
    /// What the text alone decides (references, syntax errors, analysis), shared by every expression of
    /// the file with the same text: copies of a layer carry copies of its expressions.
    private let facts: ArcadeText
    /// The expression text (after `{{ }}` substitution, as the rules see every string).
    var text: String { facts.source }
    /// The field names the expression reads from `$feature` (``ArcadeReferenceScanner/references``).
    var fieldReferences: [ArcadeReference] { facts.fieldReferences }
    /// The relationship names of its `FeatureSetByRelationshipName` calls.
    var relationshipReferences: [ArcadeReference] { facts.relationshipReferences }
    /// Every syntax error (Arcade's parser), or nil when the expression parses.
    var syntaxErrors: ArcadeSyntaxErrors? { facts.syntaxErrors }
    /// The calls, profile variables and `$map` layer names of the expression (from its analysis), empty when
    /// it does not parse.
    var calls: [ArcadeAnalysis.Call] { facts.calls }
    var profileVariableUses: [ArcadeAnalysis.ProfileVariableUse] { facts.profileVariableUses }
    var layerNames: [ArcadeAnalysis.NamedReference] { facts.layerNames }
    /// `fileOffsets[k]`: the byte offset in the file where scalar `k` of the expression was written (its
    /// first byte, or the backslash of its JSON escape); one more entry for the closing quote. Nil when the
    /// text in the file is not the text the rules read (a `{{ }}` placeholder was substituted in it): then every
    /// position is the string's start. Made on the first finding: most expressions have none.
    private lazy var fileOffsets: [Int]? = {
        guard let decoded = JSONSourceRanges.decodedString(at: node.offset, in: source.bytes),
              decoded.scalars.elementsEqual(text.unicodeScalars) else { return nil }
        return decoded.offsets
    }()
    private let node: JSONNode
    private let source: SourceText

    init(layer: LayerBehavior, entry: Entry, profile: ArcadeProfile, node: JSONNode, text: ArcadeText, source: SourceText) {
        self.layer = layer
        self.entry = entry
        self.profile = profile
        self.node = node
        facts = text
        self.source = source
    }

    /// The pointer of the `expression` string.
    var pointer: JSONPointer { infoPointer / "expression" }

    /// ``pointer`` as a report writes it, made once for all the findings in the expression.
    private(set) lazy var pointerText: String = pointer.description

    /// "'age' (expressionInfos[2])": how messages name the expression (made once: an expression may have
    /// thousands of findings, each message naming it).
    private(set) lazy var displayName: String = {
        let index = infoPointer.tokens.last ?? "?"
        if let name, !name.isEmpty { return "'\(name)'" }
        return "expressionInfos[\(index)]"
    }()

    /// True for an expression of a form (any form profile).
    var isFormExpression: Bool { profile != .popup }

    /// "the pop-up of layer 'Trees' (id Trees_1)" or "the form of table 'Inspections' (id ...)": where messages say it is.
    private(set) lazy var place: String =
        (isFormExpression ? "the form of " : "the pop-up of ") + (layer.layer.isTable ? "table " : "layer ") + layer.layer.displayName

    /// Makes the values every finding in the expression reads (its name and place in messages, its pointer, the
    /// file offsets of its characters), so that threads reporting findings of this one expression at once only
    /// read them (``MapContext/forEachConcurrently(_:state:_:)`` over its calls).
    func prepareForConcurrentReports() {
        _ = displayName
        _ = place
        _ = pointerText
        _ = fileOffset(of: 0)
    }

    /// The byte offset in the file of scalar `offset` of the expression.
    func fileOffset(of offset: Int) -> Int {
        // Rules run one after another on a file, and a rule checks an expression on one thread (`forEachConcurrently`
        // gives each expression to one chunk) unless it made this table first (`prepareForConcurrentReports`), so
        // the lazy table needs no lock.
        guard let fileOffsets, !fileOffsets.isEmpty else { return node.offset }
        return fileOffsets[min(max(offset, 0), fileOffsets.count - 1)]
    }

    /// Every expression of every pop-up and form of the map, in map order, each layer's pop-up expressions
    /// before its form's (tokenized once per file).
    static func all(in context: MapContext) -> [ArcadeExpression] {
        context.shared([ArcadeExpression].self) {
            // Each distinct text's facts: begun ahead on a large map (`startReadingTexts`), else made now (on
            // every core for a large map).
            let ahead = context.arcadeTextsAhead?.taken()
            context.arcadeTextsAhead = nil
            let inventory = ahead?.inventory ?? Inventory(context.behavior)
            let facts = ahead?.texts
                ?? ChunkedWork.map(inventory.texts, minimumCount: context.concurrencyMinimumCount) { ArcadeText($0) }
            // On every core for a large map, too: the arcade/ rules wait for these, and the other core is free now.
            let source = context.document.source
            return ChunkedWork.map(inventory.found, minimumCount: context.concurrencyMinimumCount) {
                ArcadeExpression(layer: $0.layer, entry: $0.entry, profile: $0.profile, node: $0.node, text: facts[$0.text], source: source)
            }
        }
    }

    /// Begins finding a large map's expressions on another thread and, when they hold at least
    /// `concurrencyMinimumCount` distinct texts, reading those there too, so that a second core does it while
    /// the rules before the arcade/ ones run here. (The inventory is kept either way: `all(in:)` does not walk
    /// the layers again.)
    static func startReadingTexts(in context: MapContext) {
        context.arcadeTextsAhead = ArcadeTextsAhead(behavior: context.behavior, minimumCount: context.concurrencyMinimumCount)
    }

    /// Where each expression of the map is and which distinct text it holds (read from the map's behaviour
    /// alone, on any thread).
    struct Inventory {
        struct Found {
            var layer: LayerBehavior
            var entry: Entry
            var profile: ArcadeProfile
            var node: JSONNode
            /// The index of its text in `texts`.
            var text: Int
        }

        var found: [Found] = []
        var texts: [String] = []

        init(_ behavior: MapBehavior) {
            // Room for about one expression a layer at once: growing the table step by step rehashed every
            // text again and again on a large map.
            var textIndex = [String: Int](minimumCapacity: behavior.layers.count)
            func index(of text: String) -> Int {
                if let known = textIndex[text] { return known }
                texts.append(text)
                textIndex[text] = texts.count - 1
                return texts.count - 1
            }
            for layer in behavior.layers where layer.needsMetadata {
                for info in layer.popup?.expressionInfos ?? [] {
                    guard let node = info.node["expression"], let text = node.string else { continue }
                    found.append(Found(layer: layer, entry: .popup(info), profile: .popup, node: node, text: index(of: text)))
                }
                guard let form = layer.form else { continue }
                for info in form.form.expressionInfos {
                    guard let node = info.node["expression"], let text = node.string else { continue }
                    found.append(Found(layer: layer, entry: .form(info), profile: formProfile(of: info, in: form.form),
                                       node: node, text: index(of: text)))
                }
            }
        }
    }

    /// An `expressionInfos` entry of a pop-up or of a form. Its pointer and name are read only when a finding
    /// names the expression: a large map has 100,000 expressions and few findings.
    enum Entry {
        case popup(ExpressionInfo)
        case form(FormExpressionInfo)

        var pointer: JSONPointer {
            switch self {
            case .popup(let info): return info.pointer
            case .form(let info): return info.pointer
            }
        }

        var name: String? {
            switch self {
            case .popup(let info): return info.name
            case .form(let info): return info.name
            }
        }
    }

    static func formProfile(of info: FormExpressionInfo, in form: FormInfo) -> ArcadeProfile {
        guard let name = info.name else { return .formConstraint }
        var asValue = false, asConstraint = false
        for element in form.allElements {
            for (member, used) in element.expressionReferences where used == name {
                if member == "valueExpression" { asValue = true } else { asConstraint = true }
            }
        }
        if asValue && !asConstraint { return .formCalculation }
        if !asValue && !asConstraint && info.returnType != "boolean" { return .formCalculation }
        return .formConstraint
    }
}

/// The place in an expression a finding is about: a token and what it names.
struct ArcadeReference {
    /// The name as written (a field or relationship name).
    let name: String
    /// The token that holds the name (an identifier, or a string literal with its quotes).
    let token: ArcadeToken
}

/// A large map's expressions being found, and their distinct texts read, on another thread
/// (``ArcadeExpression/startReadingTexts(in:)``). The thread reads only the map's behaviour, which nothing changes
/// once it is made.
final class ArcadeTextsAhead: @unchecked Sendable {
    /// Written by the thread before `found` is signalled; read after.
    private var inventory: ArcadeExpression.Inventory?
    private var work: WorkAhead<ArcadeText>?
    private let found = DispatchSemaphore(value: 0)

    init(behavior: MapBehavior, minimumCount: Int) {
        let thread = Thread { [self] in
            let inventory = ArcadeExpression.Inventory(behavior)
            let texts = inventory.texts
            self.inventory = inventory
            work = texts.count >= minimumCount ? WorkAhead(count: texts.count, startsThread: false) { ArcadeText(texts[$0]) } : nil
            found.signal()
            work?.work()
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// The inventory, and the texts' facts when they were read ahead (joining in on the ones not yet begun).
    func taken() -> (inventory: ArcadeExpression.Inventory, texts: [ArcadeText]?) {
        found.wait()
        found.signal()
        return (inventory!, work?.results())
    }
}
