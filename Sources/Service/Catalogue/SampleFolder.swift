import Foundation
import WebMap
import FeatureServiceModel

/// A sample folder: `<Name>.services.json` (a services snapshot holding the service root and every
/// layer's metadata, keyed by URL), `features/<id>.json` (Esri JSON feature sets; WGS84 or Web Mercator
/// geometry) or `features/<id>.geojson` (GeoJSON feature collections, WGS84), and optionally
/// `service.json` (`ServiceSettings`). Read through `SampleFiles`, so a folder on disk and the copy built
/// into the binary (`ShippedSamples`) load the same way.
struct SampleFolder {
    var name: String
    var files: SampleFiles
    var root: JSON
    var layers: [(id: Int, metadata: JSON)]
    var settings: ServiceSettings

    static func read(_ folder: String) throws -> SampleFolder { try read(.folder(folder)) }

    static func read(_ files: SampleFiles) throws -> SampleFolder {
        guard let names = files.topLevelFileNames() else {
            throw ServiceError.invalidParameter("The sample folder '\(files.location)' cannot be read.")
        }
        guard let snapshotName = names.first(where: { $0.hasSuffix(".services.json") }) else {
            throw ServiceError.invalidParameter("The sample folder '\(files.location)' has no <Name>.services.json file.")
        }
        let snapshotPath = files.path(of: snapshotName)
        let snapshot: ServicesSnapshot
        do {
            let text = try files.text(snapshotName)
            do { snapshot = try ServicesSnapshot(path: snapshotPath, root: try JSONParser.parse(text).root) } catch let error as JSONParseError {
                throw DocumentError(path: snapshotPath, message: "services snapshot is not valid JSON at \(text.position(ofOffset: error.offset)): \(error.message)")
            }
        } catch {
            throw ServiceError.invalidParameter("\(error)")
        }
        // The service root is the entry ending in /FeatureServer; its layers are the entries below it.
        guard let rootURL = snapshot.entries.keys.sorted().first(where: { $0.lowercased().hasSuffix("/featureserver") }),
              let rootNode = snapshot.entries[rootURL] else {
            throw ServiceError.invalidParameter("\(snapshotPath) has no service root entry (a URL ending in /FeatureServer).")
        }
        let parts = rootURL.split(separator: "/")
        let name = parts.count >= 2 ? String(parts[parts.count - 2]) : String(snapshotName.dropLast(".services.json".count))
        var layers: [(Int, JSON)] = []
        for (url, node) in snapshot.entries {
            guard let components = ServiceURL.layerComponents(url), components.service.lowercased() == rootURL.lowercased() else { continue }
            layers.append((components.layerId, JSON(node)))
        }
        layers.sort { $0.0 < $1.0 }
        return SampleFolder(name: name, files: files, root: JSON(rootNode), layers: layers, settings: try ServiceSettings.load(from: files))
    }

    /// Inserts the service, its layers, their features (DEFAULT, one moment) and its DEFAULT version.
    func insert(into db: any StoreConnection, now: Int64) throws {
        let settingsText = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try db.insert(ServiceRecord(name: name, root: root.text, settings: settingsText, sourceFolder: files.location, loadedDate: now,
                                    lastMoment: now, defaultMoment: now))
        for (id, metadata) in layers {
            var layer = LayerRecord(key: nil, service: name, layerId: id, metadata: metadata.text, nextObjectId: 1, nextAttachmentId: 1, defaultMoment: now)
            layer.key = try db.insert(layer, returning: "key")
            let model = LayerModel(key: layer.key!, id: id, json: metadata, metadata: LayerMetadata(try JSONParser.parse(metadata.text).root),
                                   serviceMaxRecordCount: 2000)
            let rows = try readFeatures(layer: model)
            var nextId: Int64 = 1
            var usedIds = Set<Int64>()
            for var row in rows {
                if row.objectId <= 0 || usedIds.contains(row.objectId) {
                    row.objectId = max(nextId, (usedIds.max() ?? 0) + 1)
                    row.attributes[model.objectIdField] = .int(row.objectId)
                }
                usedIds.insert(row.objectId)
                nextId = max(nextId, row.objectId + 1)
                try RowStore.write(db, layerKey: layer.key!, branch: 0, moment: now, row: row)
            }
            layer.nextObjectId = nextId
            try db.execute("UPDATE layer SET nextObjectId = \(nextId) WHERE key = \(layer.key!)")
        }
        let defaultVersion = VersionRecord(
            id: nil, service: name, branch: 0, guid: GUIDText.make(), owner: "sde", name: "DEFAULT", qualifiedName: "sde.DEFAULT",
            access: (settings.defaultVersionAccess ?? .public).rawValue, description: "The default version.",
            ancestorMoment: now, baseMoment: 0, createdDate: now, modifiedDate: now, reconcileDate: nil, postDate: nil)
        try db.insert(defaultVersion)
    }

    private func readFeatures(layer: LayerModel) throws -> [RowStore.NewRow] {
        let jsonPath = "features/\(layer.id).json"
        let geoJSONPath = "features/\(layer.id).geojson"
        if files.contains(jsonPath) { return try readEsriJSON(path: jsonPath, layer: layer) }
        if files.contains(geoJSONPath) { return try readGeoJSON(path: geoJSONPath, layer: layer) }
        return []
    }

    /// Parses the file at `path` (relative to the folder), keeping every feature.
    private func parse(path: String) throws -> JSON {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        do {
            return JSON(try JSONParser.parse(try files.text(path), options: options).root)
        } catch let error as JSONParseError {
            throw ServiceError.invalidParameter("\(files.path(of: path)) is not valid JSON (byte \(error.offset)): \(error.message)")
        } catch {
            throw ServiceError.invalidParameter("\(error)")
        }
    }

    private func readEsriJSON(path: String, layer: LayerModel) throws -> [RowStore.NewRow] {
        let set = try parse(path: path)
        let sr = set["spatialReference"].flatMap(SpatialReference.init(json:)) ?? .wgs84
        let system = try Projection.system(of: sr, default: .wgs84)
        return try (set["features"]?.array ?? []).enumerated().map { index, feature in
            var geometry: Geometry?
            if let g = feature["geometry"], !g.isNull {
                do { geometry = Projection.project(try Geometry.parse(g).geometry, from: system, to: .wgs84) } catch {
                    throw ServiceError.invalidParameter("\(files.path(of: path)): feature \(index): \(error)")
                }
            }
            return row(attributes: Attributes(json: feature["attributes"] ?? .object([])), geometry: geometry, layer: layer)
        }
    }

    private func readGeoJSON(path: String, layer: LayerModel) throws -> [RowStore.NewRow] {
        let collection = try parse(path: path)
        return try (collection["features"]?.array ?? []).enumerated().map { index, feature in
            var geometry: Geometry?
            if let g = feature["geometry"], !g.isNull {
                guard let converted = GeoJSON.esriGeometry(g) else {
                    throw ServiceError.invalidParameter("\(files.path(of: path)): feature \(index) has a geometry that is not a GeoJSON Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon.")
                }
                geometry = converted
            }
            return row(attributes: Attributes(json: feature["properties"] ?? .object([])), geometry: geometry, layer: layer)
        }
    }

    /// Normalises a sample feature: known fields in field order, GUIDs canonical, an object id and a global id.
    private func row(attributes input: Attributes, geometry: Geometry?, layer: LayerModel) -> RowStore.NewRow {
        var attributes = Attributes()
        for field in layer.fields {
            var value = input[field.name] ?? .null
            if field.type == .globalID || field.type == .guid, let text = value.string { value = GUIDText.normalize(text).map(AttributeValue.string) ?? value }
            attributes[field.name] = value
        }
        let objectId: Int64
        if case .int(let id) = attributes[layer.objectIdField] ?? .null { objectId = id } else { objectId = 0 }
        var globalId = GUIDText.make()
        if let field = layer.globalIdField {
            if let text = attributes[field]?.string, let id = GUIDText.normalize(text) { globalId = id }
            attributes[field] = .string(globalId)
        }
        return RowStore.NewRow(objectId: objectId, globalId: globalId, isDelete: false, attributes: attributes,
                               geometry: layer.isTable ? nil : geometry)
    }
}
