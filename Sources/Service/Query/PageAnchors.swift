import Foundation
import FeatureServiceModel
import WebMap

/// Deep pages of DEFAULT without a filter (`resultOffset` in the tens of thousands, as dump tools ask)
/// would walk the head index entry by entry up to the offset. This cache keeps, per layer, the sorted live
/// object ids as of DEFAULT's last write to the layer, so that an offset turns into an object id in one
/// step; it is rebuilt (once) after the layer changes.
final class PageAnchors: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Int64: (moment: Int64, ids: [Int64])] = [:]

    /// Offsets below this are cheaper to walk than to look up.
    static let threshold = 2_000

    /// Which way a page walks the object ids: `orderByFields` absent or `OBJECTID [ASC]`, or `OBJECTID DESC`.
    enum Direction: Sendable {
        case ascending, descending

        /// The `ORDER BY` suffix of the direction (`""` or `" DESC"`).
        var sql: String { self == .ascending ? "" : " DESC" }

        /// A start past every object id in this direction: a page from it is empty.
        var pastTheEnd: Int64 { self == .ascending ? Int64.max : Int64.min }

        /// The index in the ascending ids of the `offset`-th id in this direction (nil past the end).
        func index(of offset: Int, among count: Int) -> Int? {
            guard offset < count else { return nil }
            return self == .ascending ? offset : count - 1 - offset
        }
    }

    /// The object id at `offset` as of the moment its layer's ids were cached, without reading the store; nil when
    /// they are not cached or `offset` is past them. Whoever uses it checks, in the same statement, that the
    /// layer's `defaultMoment` is still `moment`.
    func cachedObjectId(layerKey: Int64, offset: Int, _ direction: Direction = .ascending) -> (moment: Int64, objectId: Int64)? {
        lock.lock()
        let cached = entries[layerKey]
        lock.unlock()
        guard let cached, let index = direction.index(of: offset, among: cached.ids.count) else { return nil }
        return (cached.moment, cached.ids[index])
    }

    /// The object id at `offset` among the live objects of DEFAULT taken in `direction` (nil past the end).
    func objectId(_ db: any StoreConnection, layerKey: Int64, offset: Int, _ direction: Direction = .ascending) throws -> Int64?? {
        guard let moment = try db.fetchValue("SELECT defaultMoment FROM layer WHERE key = \(layerKey)", as: Int64.self) else {
            return nil
        }
        lock.lock()
        let cached = entries[layerKey]
        lock.unlock()
        let ids: [Int64]
        if let cached, cached.moment == moment {
            ids = cached.ids
        } else {
            ids = try db.fetchValues("SELECT objectId FROM head WHERE layerKey = \(layerKey) AND branch = 0 AND isDelete = 0 ORDER BY objectId",
                                     as: Int64.self)
            lock.lock()
            entries[layerKey] = (moment, ids)
            lock.unlock()
        }
        return .some(direction.index(of: offset, among: ids.count).map { ids[$0] })
    }
}
