import WebMap

/// `map/token-in-url`: a layer URL carries a token or an API key.
public enum MapTokenInURLRule: MapRule {
    public static let description = RuleDescription(
        id: "map/token-in-url",
        severity: .error,
        summary: "A layer URL carries `token=` or an API key: a secret published with the map.",
        rationale: """
            A web map is read by everyone it is shared with, and often copied into other maps and apps. A token \
            or API key in a layer URL gives all of them the access of the account it was issued to, and once \
            the token expires the layer stops loading. The app signs in by itself and adds its own token to \
            each request; URLs in the map must not carry one.
            """,
        fix: "Remove the `token` (or `apikey`/`key`) parameter from the URL (`maprules lint --fix` does) and revoke the leaked credential.",
        triggeringExamples: [
            .document(Examples.map(url: Examples.treesURL + "?token=AbC123xYz"), services: Examples.treesSnapshot),
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Streets", "baseMapLayers": [
                    {"id": "Streets", "layerType": "VectorTileLayer",
                     "styleUrl": "https://basemaps.example.com/styles/streets?apiKey=AAPK123"}
                  ]}
                }
                """),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(url: Examples.treesURL + "?tokenType=oauth"), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(LayerURLReference.all(in: context)) { context, reference in
            guard ServiceURL.carriesSecret(reference.url) else { return }
            let parameter = secretParameter(in: reference.url)
            let what = parameter.map { $0.lowercased() == "token" ? "a `\($0)=` parameter" : "an API key (`\($0)=`)" } ?? "a secret"
            let pending = TemplatePlaceholders.contains(reference.url) ? " once the build step fills in the placeholder" : ""
            context.report(self, pointer: reference.pointer, message: """
                The URL of the \(reference.name) carries \(what): the secret is published with the map\(pending) \
                to everyone who can open it, and the layer breaks when it expires. Remove the parameter (the app \
                signs in and adds its own token) and revoke the credential.
                """, layer: context.layerBehavior(of: reference.layer), fix: removal(in: reference, context: context))
        }
    }

    /// The URL without its secret parameters (the credential must still be revoked: the fix cannot do that).
    private static func removal(in reference: LayerURLReference, context: MapContext) -> Fix? {
        guard let node = reference.pointer.resolve(in: context.document.root), context.fixes.isVerbatim(node, reference.url),
              let cleaned = urlWithoutSecrets(reference.url), cleaned != reference.url else { return nil }
        return context.fixes.replace(node, at: reference.pointer, with: .string(cleaned),
                                     description: "Remove the secret from the URL (and revoke the credential).")
    }

    /// `url` without the query parameters that carry a secret; nil when it has no query.
    static func urlWithoutSecrets(_ url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let base = url[..<question]
        var query = url[url.index(after: question)...]
        var fragment = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = String(query[hash...])
            query = query[..<hash]
        }
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
            let name = String(pair.split(separator: "=", maxSplits: 1).first ?? "")
            return !ServiceURL.carriesSecret("x?" + name + "=")
        }
        return String(base) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    /// The name of the query parameter that holds the secret, as written.
    static func secretParameter(in url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let name = String(pair.split(separator: "=", maxSplits: 1).first ?? "")
            if ServiceURL.carriesSecret("x?" + name + "=") { return name }
        }
        return nil
    }
}
