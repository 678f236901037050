import Foundation
import FeatureServiceModel
import WebMap

extension QueryPlan {
    /// A short read (`isShortRead`: a page of DEFAULT without filter, in object id order) as one statement, read in that
    /// statement's own snapshot without a transaction: the page itself, and in its WHERE clause the checks the full read
    /// makes in its own statements: that DEFAULT exists and the caller may see it
    /// (`AccessPolicy.defaultViewableAccess`), and, for a deep page started from a cached object id
    /// (`PageAnchors`), that DEFAULT has not written to the layer since.
    ///
    /// nil when the object ids of a deep page are not cached. When the statement answers no row (a check failed, or
    /// the page is empty), the caller makes the full read, which answers each case exactly (an error, a page from
    /// fresh object ids, an empty page).
    ///
    /// The statement's text is the same for every page of one shape (`PageStatements.Key`): it is made once per layer
    /// and shape, and each page binds its own values (writing the text was 1.7 % of a GeoJSON page's CPU).
    func singleStatementPage(service: String, policy: AccessPolicy, anchors: PageAnchors, dialect: SQLDialect) -> Page? {
        guard isShortRead, let direction = objectIdOrder else { return nil }
        let shape = pageShape
        let access = policy.defaultViewableAccess
        var anchor: (moment: Int64, objectId: Int64)?
        if shape.offset >= PageAnchors.threshold {
            guard let cached = anchors.cachedObjectId(layerKey: layer.key, offset: shape.offset, direction) else { return nil }
            anchor = cached
        }
        let key = PageStatements.Key(withGeometry: shape.withGeometry, limit: shape.limit, descending: direction == .descending,
                                     start: anchor != nil ? .anchor : shape.offset == 0 ? .first : .offset,
                                     dialect: dialect, accessValues: access?.count)
        // The values in the order the text's placeholders take them: the start (a deep page's object id, or the
        // offset), then the checks' service, access values and moment.
        var arguments: [StoreValue] = []
        arguments.reserveCapacity(4 + (access?.count ?? 0))
        switch key.start {
        case .anchor: arguments.append(.integer(anchor!.objectId))
        case .offset: arguments.append(.integer(Int64(shape.offset)))
        case .first: break
        }
        arguments.append(.text(service))
        for value in access ?? [] { arguments.append(.text(value)) }
        if let anchor { arguments.append(.integer(anchor.moment)) }

        var unmatched: StoreSQL?
        let text = layer.pageStatements.text(key) {
            var checks: StoreSQL = " AND EXISTS (SELECT 1 FROM version v WHERE v.service = \(service) AND v.branch = 0"
            if let access { checks.append(" AND v.access IN \(access)") }
            checks.append(")")
            if let anchor {
                checks.append(" AND EXISTS (SELECT 1 FROM layer l WHERE l.key = \(raw: String(layer.key)) AND l.defaultMoment = \(anchor.moment))")
            }
            let sql = unfilteredPage(shape, from: anchor?.objectId, direction: direction, dialect: dialect, opaqueStart: true, checks: checks)
            // Kept only when this page's values are the statement's own, in its order (never a text with other values).
            guard sql.arguments == arguments else {
                unmatched = sql
                return nil
            }
            return sql.text
        }
        let sql = text.map { StoreSQL(text: $0, arguments: arguments) } ?? unmatched
        return sql.map { Page(sql: $0, limit: shape.limit, withGeometry: shape.withGeometry) }
    }
}

/// The text of a layer's single-statement page (`QueryPlan.singleStatementPage`) for each page shape, made once: the
/// text depends on the shape alone (the layer's key and the page size are written into it, everything else is bound).
/// A layer's metadata never changes while it is loaded, so an entry never goes stale; the cache belongs to the layer
/// model (`LayerModel.pageStatements`) and goes with it.
final class PageStatements: @unchecked Sendable {
    struct Key: Hashable {
        enum Start: Hashable {
            /// The first page: no start.
            case first
            /// A page from an offset (head entries skipped).
            case offset
            /// A deep page from a cached object id, checked against the layer's moment.
            case anchor
        }

        var withGeometry: Bool
        var limit: Int
        var descending: Bool
        var start: Start
        var dialect: SQLDialect
        /// How many access values the caller's check binds (nil: no access check).
        var accessValues: Int?
    }

    /// Entries kept per layer: page sizes are the clients' choice, so the cache stops growing here.
    static let capacity = 64

    private let lock = NSLock()
    private var texts: [Key: String] = [:]

    /// The text of `key`, made by `make` the first time (and not kept when `make` answers nil).
    func text(_ key: Key, make: () -> String?) -> String? {
        lock.lock()
        let cached = texts[key]
        lock.unlock()
        if let cached { return cached }
        guard let made = make() else { return nil }
        lock.lock()
        if texts.count < Self.capacity { texts[key] = made }
        lock.unlock()
        return made
    }
}
