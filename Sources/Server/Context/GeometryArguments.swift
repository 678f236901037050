import Foundation
import Service
import WebMap
import FeatureServiceModel

extension RequestArguments {
    /// The area a request is about: `geometry` (`x,y`, `xmin,ymin,xmax,ymax` or Esri JSON) of the type
    /// `geometryType` names (any case), in the spatial reference `inSR` names, else the one the geometry carries.
    /// Read alike by `<layer>/query` and `createReplica`; a malformed one is refused with a 400 that names it.
    func geometryArgument() throws -> (geometry: Geometry?, spatialReference: SpatialReference?) {
        var geometry: Geometry?
        var reference: SpatialReference?
        if let text = string("geometry") {
            var type: GeometryType?
            if let typeText = string("geometryType") {
                guard let parsed = GeometryType.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(typeText) == .orderedSame }) else {
                    throw ServiceError.invalidParameter("geometryType '\(typeText.prefix(40))' is not one of \(GeometryType.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                type = parsed
            }
            do {
                (geometry, reference) = try Geometry.parse(parameter: text, type: type)
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError.invalidParameter("geometry: \(error)")
            }
        }
        if let inSR = try spatialReference("inSR") { reference = inSR }
        return (geometry, reference)
    }
}
