import Foundation
import Service
import FeatureServiceModel
import WebMap

extension HTMLPages {
    /// A VersionManagementServer's page: its facts and the versions the caller may see.
    struct VersionsPage {
        struct Row {
            var versionName: String
            var owner: String
            var access: String
            var accessClass: String
            var description: String
            var modified: String
            var infoHref: String
        }

        var chrome: Chrome
        var facts: [Fact]
        var capabilities: [String]
        var visibility: String
        var rows: [Row]
        var hasRows: Bool
        var version = SiteInfo.serverFullVersion
    }

    /// From `versionManagementInfo` and `versionInfos` (which already leaves out what the caller may not see).
    static func versions(service: String, _ info: VersionManagementInfo, _ versions: VersionInfos, signedIn: Bool, chrome: Chrome) -> VersionsPage {
        let rows = versions.versions.map { version in
            let guid = version.versionGuid.trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
            return VersionsPage.Row(versionName: version.versionName, owner: version.owner, access: accessLabel(version.access),
                                    accessClass: version.accessPermission?.rawValue ?? "public",
                                    description: version.description, modified: date(millis: version.modifiedDate),
                                    infoHref: link(servicePath(service, "VersionManagementServer", "versions", guid), [("f", "pjson")]))
        }
        return VersionsPage(
            chrome: chrome,
            facts: [Fact(term: "Default version", detail: info.defaultVersionName), Fact(term: "Default version GUID", detail: info.defaultVersionGuid)],
            capabilities: list(info.capabilities),
            visibility: signedIn ? "The public and protected versions, and the private versions you may see."
                : "The public and protected versions. Sign in to see your private versions as well.",
            rows: rows, hasRows: !rows.isEmpty)
    }

    /// `esriVersionAccessPrivate` → `Private`.
    static func accessLabel(_ esriName: String) -> String {
        esriName.hasPrefix("esriVersionAccess") ? String(esriName.dropFirst("esriVersionAccess".count)) : esriName
    }
}
