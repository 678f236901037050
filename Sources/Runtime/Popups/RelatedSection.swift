import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// A related-records section of a pop-up (docs/runtime.md): many-to-one (pick the record to point to) or
/// one-to-many (the child records, with "Add" when the related table can add).
public struct RelatedSection: Sendable {
    public var relationship: Relationship
    public var kind: RelationshipKind
    /// The related table's service id.
    public var relatedTableID: Int
    public var relatedTableName: String
    /// One-to-many: the related table can add records.
    public var canAdd: Bool
    /// Composite many-to-one: a new record must point to one before saving.
    public var isComposite: Bool
}

extension ServiceGeodatabase {
    /// The relationships of `table` that the app uses (related table in the map and pop-up enabled, one-to-many
    /// from either side), as pop-up sections.
    func relatedSections(of table: TableInfo) async throws -> [RelatedSection] {
        let popups = try await loaded().popups
        return popups.relationships(of: table).compactMap { use in
            guard use.isUsed, let index = use.relatedIndex, let relatedID = popups.tableID(ofMapIndex: index), let related = popups.tables[relatedID] else { return nil }
            return RelatedSection(relationship: use.relationship, kind: use.kind, relatedTableID: relatedID, relatedTableName: related.name,
                                  canAdd: related.capabilities.canAdd, isComposite: use.relationship.composite)
        }
    }

    /// The section of `table` for a relationship name or id, or `runtime/relationship-not-found` (not a
    /// relationship of the table, or one the app does not use).
    func relatedSection(_ nameOrId: String, of table: TableInfo) async throws -> RelatedSection {
        let sections = try await relatedSections(of: table)
        if let section = sections.first(where: { $0.relationship.name?.caseInsensitiveCompare(nameOrId) == .orderedSame || $0.relationship.id.map(String.init) == nameOrId }) {
            return section
        }
        let known = table.metadata.relationships.first { $0.name?.caseInsensitiveCompare(nameOrId) == .orderedSame || $0.id.map(String.init) == nameOrId }
        let why = known == nil
            ? "it has no relationship '\(nameOrId)' (it has \(table.metadata.relationships.compactMap(\.name).map { "'\($0)'" }.joined(separator: ", ").nonEmpty ?? "none"))"
            : "the app does not use relationship '\(nameOrId)' (related table absent or not pop-up enabled, or a one-to-one or many-to-many relationship)"
        throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(table.title): \(why).", layer: table.reference)
    }

    /// Records to choose from for a many-to-one section: every record of the related table, ascending by its
    /// first pop-up field.
    func manyToOneChoices(_ section: RelatedSection) async throws -> [TableFeature] {
        let related = try await info(section.relatedTableID)
        let records = try await queryFeatures(FeatureQuery(), tableID: related.id)
        guard let first = Self.firstDisplayField(of: related) else { return records }
        return try LocalOrder(orderBy: "\(first) ASC", table: related).sorted(records)
    }

    /// The child records of `feature` in a one-to-many section: descending by the related table's first pop-up
    /// field, nulls last.
    func oneToManyRecords(of feature: TableFeature, table: TableInfo, section: RelatedSection) async throws -> [TableFeature] {
        let related = try await info(section.relatedTableID)
        let records = try await relatedFeatures(of: feature, table: table, relationship: section.relationship)
        guard let first = Self.firstDisplayField(of: related) else { return records }
        let withValue = records.filter { !($0[first] ?? .null).isNull }, without = records.filter { ($0[first] ?? .null).isNull }
        return try LocalOrder(orderBy: "\(first) DESC", table: related).sorted(withValue) + without
    }

    static func firstDisplayField(of table: TableInfo) -> String? {
        table.behavior.displayFields.first { $0.field != nil }?.field?.name
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
