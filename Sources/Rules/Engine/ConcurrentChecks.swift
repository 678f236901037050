import Foundation
import WebMap

/// A rule's check of many independent items of one map (its 100,000 Arcade expressions) spread over the cores:
/// the items are cut into contiguous chunks, each chunk checked on its own thread against its own copy of the
/// context, which collects that chunk's findings; the chunks' findings are then added to the file's in chunk
/// order, so the findings and their order are those of the serial loop. Below the map's
/// ``MapContext/concurrencyMinimumCount`` items, or on one core, it is that serial loop.
///
/// The check must touch nothing another item's check writes: it reads the item, the map and its behaviour
/// (read-only once made) and values already shared (``MapContext/shared(_:_:)``), and reports through the
/// context it is handed. An item's own lazily made values (an expression's display name, its file offsets) are
/// made by the one thread that checks it.
///
///     context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
///         for error in expression.syntaxErrors?.errors ?? [] { context.report(...) }
///     }
extension MapContext {
    func forEachConcurrently<Item>(_ items: [Item], _ check: (MapContext, Item) -> Void) {
        forEachConcurrently(items, state: {}) { context, _, item in check(context, item) }
    }

    /// The same with a state of each chunk's own (made by `makeState`), which the check may change from item
    /// to item: a memo of the suggestions already computed, for instance.
    func forEachConcurrently<Item, State>(_ items: [Item], state makeState: () -> State, _ check: (MapContext, inout State, Item) -> Void) {
        // The count first: this is asked for each of a map's 100,000 expressions (their calls), and the number of
        // cores is only worth asking about (once: `ChunkedWork.cores`) for the few lists long enough to spread.
        guard items.count >= max(concurrencyMinimumCount, 2), ChunkedWork.cores > 1 else {
            var state = makeState()
            for item in items { check(self, &state, item) }
            return
        }
        // More chunks than cores: a core that finishes early (or was busy elsewhere) takes the next chunk.
        let chunks = min(ChunkedWork.cores * 4, items.count)
        let contexts = (0..<chunks).map { _ in chunkContext() }
        items.withUnsafeBufferPointer { items in
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let context = contexts[chunk]
                var state = makeState()
                for index in (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks) {
                    check(context, &state, items[index])
                }
            }
        }
        for context in contexts { lint.appendDiagnostics(of: context.lint) }
    }

    /// A context for one chunk of ``forEachConcurrently(_:_:)``: the same map and behaviour, the values shared so
    /// far, and findings of its own.
    private func chunkContext() -> MapContext {
        let context = MapContext(lint: lint.chunkContext(), document: document, behavior: behavior, fetchFailure: fetchFailure,
                                 serviceJSON: serviceJSON)
        context.concurrencyMinimumCount = concurrencyMinimumCount
        return context
    }
}

extension LintContext {
    /// The same file, configuration and shared values, with no findings yet.
    func chunkContext() -> LintContext {
        let context = LintContext(path: path, source: source, parseError: parseError, parsed: parsed, recordSubjects: recordSubjects,
                                  isExplicit: isExplicit, configuration: configuration)
        context.document = document
        context.placeholders = placeholders
        context.sharedValues = sharedValues
        return context
    }
}
