import FeatureServiceModel
import WebMap
extension QueryPlan {
    /// A short read (`isShortRead`: a page of DEFAULT without filter, in object id order) as one statement, read in that
    /// statement's own snapshot with no transaction around it, for a store where each statement and each
    /// transaction is a round trip (PostgreSQL). The page's SELECT checks itself what the full read (`runText`)
    /// looks up before it: that sde.DEFAULT exists and this caller may view it
    /// (`AccessPolicy.defaultViewableAccess`), and, for a deep page started from a cached object id
    /// (`PageAnchors`), that DEFAULT has not written to the layer since.
    ///
    /// nil when the object ids of a deep page are not cached. When the statement answers no row (a check failed, or
    /// the page is empty), the caller makes the full read, which answers each case exactly (an error, a page from
    /// fresh object ids, an empty page).
    func singleStatementPage(service: String, policy: AccessPolicy, anchors: PageAnchors, dialect: SQLDialect) -> Page? {
        guard isShortRead, let direction = objectIdOrder else { return nil }
        let shape = pageShape
        var checks: StoreSQL = " AND EXISTS (SELECT 1 FROM version v WHERE v.service = \(service) AND v.branch = 0"
        if let access = policy.defaultViewableAccess { checks.append(" AND v.access IN \(access)") }
        checks.append(")")
        var start: Int64?
        if shape.offset >= PageAnchors.threshold {
            guard let cached = anchors.cachedObjectId(layerKey: layer.key, offset: shape.offset, direction) else { return nil }
            checks.append(" AND EXISTS (SELECT 1 FROM layer l WHERE l.key = \(raw: String(layer.key)) AND l.defaultMoment = \(cached.moment))")
            start = cached.objectId
        }
        return Page(sql: unfilteredPage(shape, from: start, direction: direction, dialect: dialect, opaqueStart: true, checks: checks), limit: shape.limit, withGeometry: shape.withGeometry)
    }
}
