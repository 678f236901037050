import WebMap

/// `map/title-too-long`: the map title is over 40 characters.
public enum MapTitleTooLongRule: MapRule {
    /// Longest title that fits the navigation bar of a small phone.
    static let maximumLength = 40

    public static let description = RuleDescription(
        id: "map/title-too-long",
        severity: .info,
        summary: "The map title is over 40 characters.",
        rationale: """
            The app shows the map's title as its navigation title; on a small screen the bar holds about 40 \
            characters and a longer title is cut off with an ellipsis, often losing the part that tells two \
            maps apart. The title is known when the file is the `{"item": ..., "itemData": ...}` export.
            """,
        fix: "Shorten the item's title on the portal to 40 characters or fewer; put the details in its summary.",
        triggeringExamples: [
            .document("""
                {
                  "item": {"id": "8d1a7c0e4b6f4e2a9c3b5d7f1e2a4c6b", "title": "Portland Street Trees: Planting and Inspection Records 2024"},
                  "itemData": {"operationalLayers": [], "baseMap": {"title": "Topographic", "baseMapLayers": []}}
                }
                """),
        ],
        nonTriggeringExamples: [
            .document("""
                {
                  "item": {"id": "8d1a7c0e4b6f4e2a9c3b5d7f1e2a4c6b", "title": "Portland Street Trees"},
                  "itemData": {"operationalLayers": [], "baseMap": {"title": "Topographic", "baseMapLayers": []}}
                }
                """),
            // Exactly 40 characters, one of them accented.
            .document("""
                {
                  "item": {"title": "Arbres de rue — inspections 2024, Québec"},
                  "itemData": {"operationalLayers": [], "baseMap": {"title": "Topographic", "baseMapLayers": []}}
                }
                """),
        ])

    public static func check(_ context: MapContext) {
        guard let title = context.document.title, let pointer = context.document.titlePointer,
              title.count > maximumLength else { return }
        context.report(self, pointer: pointer, message: """
            The map title '\(title)' is \(title.count) characters long: the app shows it as the navigation \
            title, which a phone cuts off after about \(maximumLength) characters. Shorten the item's title to \
            \(maximumLength) characters or fewer.
            """)
    }
}
