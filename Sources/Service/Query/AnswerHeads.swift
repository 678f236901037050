import Foundation
import FeatureServiceModel
import WebMap

/// The parts of a layer's `f=json` query answer that depend only on the layer and the request's output fields
/// and spatial reference, worked out once and then copied: the answer's head (`objectIdFieldName` to
/// `"features":[`, with the field descriptions, 3 KB for a layer of 15 fields) and the stored-text writer of those
/// output fields. A layer's metadata never changes while it is loaded (a `LayerModel` is built once per start),
/// so an entry never goes stale; the cache belongs to the layer model and goes with it.
final class AnswerHeads: @unchecked Sendable {
    struct Key: Hashable {
        var outFields: [String]
        var spatialReference: SpatialReference?
    }

    struct Entry {
        /// `{"objectIdFieldName":...,"fields":[...],"features":[`.
        let head: [UInt8]
        /// Nil when the output field names do not allow writing the stored text as it is.
        let writer: StoredAttributesWriter?
    }

    /// Entries kept per layer: clients choose `outFields` freely, so the cache stops growing here.
    static let capacity = 64

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    /// Bytes a feature took in the layer's last answer that had features, to reserve the next one's at once.
    private var lastFeatureSize = 0

    /// The entry found or made last: pages of a layer mostly ask the same output fields (for `*`, the layer's own list,
    /// whose equality with itself is one comparison), so most look-ups need not hash a list of field names.
    private var last: (key: Key, entry: Entry)?

    func entry(_ key: Key, make: () -> Entry) -> Entry {
        lock.lock()
        if let last, last.key == key {
            lock.unlock()
            return last.entry
        }
        let cached = entries[key]
        if let cached { last = (key, cached) }
        lock.unlock()
        if let cached { return cached }
        let made = make()
        lock.lock()
        if entries.count < Self.capacity { entries[key] = made }
        last = (key, made)
        lock.unlock()
        return made
    }

    var featureSize: Int {
        get { lock.lock(); defer { lock.unlock() }; return lastFeatureSize }
        set { lock.lock(); lastFeatureSize = newValue; lock.unlock() }
    }
}
