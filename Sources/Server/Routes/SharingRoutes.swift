import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// A minimal portal under `/arcgis/sharing/rest`, enough for portal-based clients (the `arcgis`
/// Python package) to sign in and open the sample web maps: the root, `info`, `portals/self`,
/// `community/self`, `community/users/<name>`, `search`, `content/items/<id>` and its `data`.
struct SharingRoutes {
    static let portalId = "0123456789ABCDEF"
    let core: ServiceCore
    let site: SiteInfo
    let items: PortalItems

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        for prefix in ["arcgis/sharing/rest", "arcgis/sharing"] {
            let group = router.group(RouterPath(prefix))
            group.getAndPost("", use: root)
            group.getAndPost("info", use: info)
            group.getAndPost("portals/self", use: portalSelf)
            group.getAndPost("portals/\(Self.portalId)", use: portalSelf)
            group.getAndPost("portals/self/roles", use: roles)
            group.getAndPost("community/self", use: communitySelf)
            group.getAndPost("community/users/:user", use: communityUser)
            group.getAndPost("search", use: search)
            group.getAndPost("content/items/:item", use: item)
            group.getAndPost("content/items/:item/data", use: itemData)
        }
    }

    @Sendable func root(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(.object([("currentVersion", .string(SiteInfo.portalVersion))]), context: context)
    }

    @Sendable func info(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let base = site.baseURL(for: request)
        return ArcGISResponse.document(.object([
            ("owningSystemUrl", .string(base)),
            ("authInfo", .object([
                ("tokenServicesUrl", .string("\(base)/sharing/rest/generateToken")),
                ("isTokenBasedSecurity", .bool(true)),
            ])),
        ]), context: context)
    }

    @Sendable func portalSelf(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let base = site.baseURL(for: request)
        let host = base.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? site.fallbackAuthority
        var members: [(String, JSON)] = [
            ("id", .string(Self.portalId)),
            ("name", .string("MapRules")),
            ("portalName", .string("MapRules embedded feature service")),
            ("isPortal", .bool(true)),
            ("portalMode", .string("singletenant")),
            ("currentVersion", .string(SiteInfo.portalVersion)),
            ("portalHostname", .string("\(host)/arcgis")),
            ("allSSL", .bool(site.tls)),
            ("supportsOAuth", .bool(false)),
            ("access", .string("public")),
            ("canSearchPublic", .bool(true)),
            ("canSharePublic", .bool(true)),
            ("culture", .string("en")),
            ("region", .string("US")),
            ("units", .string("metric")),
            ("helperServices", .object([])),
            ("authorizedCrossOriginDomains", .array([])),
            ("featuredGroups", .array([])),
            ("portalProperties", .object([])),
            ("created", .int(0)),
            ("modified", .int(0)),
        ]
        if let user = context.caller.user { members.append(("user", Self.userJSON(user))) }
        return ArcGISResponse.document(.object(members), context: context)
    }

    /// Custom roles: none (the users file's roles are the built-in ones).
    @Sendable func roles(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(.object([("total", .int(0)), ("start", .int(1)), ("num", .int(0)), ("nextStart", .int(-1)),
                                         ("roles", .array([]))]), context: context)
    }

    @Sendable func communitySelf(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let user = context.caller.user else {
            if !core.requiresAuthentication {
                return ArcGISResponse.document(Self.userJSON(User(username: "anonymous", role: .admin)), context: context)
            }
            throw ServiceError.tokenRequired
        }
        return ArcGISResponse.document(Self.userJSON(user), context: context)
    }

    @Sendable func communityUser(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try context.pathParameter("user")
        guard let user = core.users.first(where: { $0.username.caseInsensitiveCompare(name) == .orderedSame }), !context.caller.isAnonymous else {
            throw ServiceError(code: 400, message: "User not found", details: ["There is no user '\(name)' you may see."])
        }
        return ArcGISResponse.document(Self.userJSON(user), context: context)
    }

    @Sendable func search(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let search = PortalSearch(context.arguments.string("q") ?? "")
        let owner = itemOwner
        let matches = items.items.filter { item in
            search.matches(id: item.id, title: item.title, type: "Web Map", owner: owner, tags: Self.tags, orgId: Self.portalId)
        }
        let start = max(1, try context.arguments.int("start") ?? 1)
        let num = max(0, min(100, try context.arguments.int("num") ?? 10))
        let page = Array(matches.dropFirst(start - 1).prefix(num))
        let next = start - 1 + page.count < matches.count ? start + page.count : -1
        return ArcGISResponse.document(.object([
            ("query", .string(context.arguments.string("q") ?? "")),
            ("total", .int(matches.count)),
            ("start", .int(start)),
            ("num", .int(num)),
            ("nextStart", .int(next)),
            ("results", .array(page.map { itemJSON($0, request: request) })),
        ]), context: context)
    }

    @Sendable func item(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(itemJSON(try lookUp(context), request: request), context: context)
    }

    @Sendable func itemData(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let found = try lookUp(context)
        return ArcGISResponse.document(PortalItems.rewrite(found.data, baseURL: site.baseURL(for: request), services: core.serviceNames), context: context)
    }

    private func lookUp(_ context: MapRulesRequestContext) throws -> PortalItems.Item {
        let id = try context.pathParameter("item")
        guard let found = items.item(id) else {
            throw ServiceError(code: 400, message: "Item does not exist or is inaccessible.", details: ["There is no item '\(id.prefix(40))'."])
        }
        return found
    }

    static let tags = ["maprules", "sample"]

    /// Items belong to the first administrator of the users file.
    private var itemOwner: String { core.users.first(where: { $0.role == .admin })?.username ?? "admin" }

    private func itemJSON(_ item: PortalItems.Item, request: Request) -> JSON {
        let owner = itemOwner
        return .object([
            ("id", .string(item.id)),
            ("owner", .string(owner)),
            ("orgId", .string(Self.portalId)),
            ("created", .int(Int(item.created))),
            ("modified", .int(Int(item.created))),
            ("title", .string(item.title)),
            ("name", .string(item.title)),
            ("type", .string("Web Map")),
            ("typeKeywords", .array(["ArcGIS Online", "Collector", "Data Editing", "Explorer Web Map", "Map", "Offline", "Online Map", "Web Map"].map(JSON.string))),
            ("description", .string("Sample web map served by maprules serve.")),
            ("snippet", .string(item.title)),
            ("tags", .array(Self.tags.map(JSON.string))),
            ("url", .null),
            ("access", .string("public")),
            ("size", .int(item.data.text.utf8.count)),
            ("ownerFolder", .null),
            ("protected", .bool(false)),
            ("numViews", .int(0)),
            ("extent", .array([])),
        ])
    }

    /// A portal user as `community/self` describes one.
    static func userJSON(_ user: User) -> JSON {
        let role: String
        let privileges: [String]
        switch user.role {
        case .admin:
            role = "org_admin"
            privileges = ["portal:admin:viewUsers", "portal:admin:updateItems", "portal:publisher:publishFeatures", "portal:user:createItem",
                          "features:user:edit", "features:user:fullEdit", "portal:user:shareToPublic"]
        case .publisher:
            role = "org_publisher"
            privileges = ["portal:publisher:publishFeatures", "portal:user:createItem", "features:user:edit"]
        case .user:
            role = "org_user"
            privileges = ["portal:user:createItem", "features:user:edit"]
        }
        return .object([
            ("username", .string(user.username)),
            ("id", .string(String(user.username.utf8.map { String(format: "%02x", $0) }.joined().prefix(32)))),
            ("fullName", .string(user.username)),
            ("firstName", .string(user.username)),
            ("lastName", .string("")),
            ("email", .string("")),
            ("orgId", .string(portalId)),
            ("role", .string(role)),
            ("roleId", .string(role)),
            ("privileges", .array(privileges.map(JSON.string))),
            ("level", .string("2")),
            ("userLicenseTypeId", .string("creatorUT")),
            ("access", .string("org")),
            ("provider", .string("arcgis")),
            ("disabled", .bool(false)),
            ("units", .string("metric")),
            ("culture", .string("en")),
            ("created", .int(0)),
            ("modified", .int(0)),
            ("groups", .array([])),
        ])
    }
}
