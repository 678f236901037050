import Foundation
import WebMap

/// Work over many independent items of one file (its layers, its distinct expression texts) done on the
/// machine's cores: the items are split into contiguous chunks, each chunk's results written into its own
/// slots, so the answer is the array a serial `map` makes, in the same order. Below ``minimumCount`` items, or
/// on one core, it is that serial `map`: threads cost more than they save on small maps.
///
/// The transform must touch nothing another item's transform writes: it makes a value from its item alone (a
/// layer's behaviour from the layer and read-only metadata, an expression's tokens and syntax tree from its
/// text).
///
///     let behaviors = ChunkedWork.map(document.layers) { LayerBehavior(layer: $0, resolved: resolve($0)) }
enum ChunkedWork {
    /// Items below which the work stays on the calling thread.
    static let minimumCount = 2_000

    /// The cores the process may use (asked once: ``ProcessorCount``).
    static var cores: Int { ProcessorCount.active }

    /// `items.map(transform)`, computed in chunks on every core when there are at least `minimumCount` items.
    static func map<Item, Result>(_ items: [Item], minimumCount: Int = minimumCount, _ transform: (Item) -> Result) -> [Result] {
        guard items.count >= max(minimumCount, 2), cores > 1 else { return items.map(transform) }
        // More chunks than cores: a core that finishes early (or was busy elsewhere) takes the next chunk.
        let chunks = min(cores * 8, items.count)
        let count = items.count
        return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let slots = buffer.baseAddress!
            items.withUnsafeBufferPointer { items in
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for index in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                        (slots + index).initialize(to: transform(items[index]))
                    }
                }
            }
            initializedCount = count
        }
    }
}
