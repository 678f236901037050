/// The name of every function of Esri's Arcade function reference (https://developers.arcgis.com/arcade/function-reference/),
/// in the reference's spelling, by category, including the ones MapRules does not evaluate (portal, attachments,
/// geometry engine, track, knowledge graph). `isKnown` and `suggestion(for:)` serve the checkers
/// (`arcade/unknown-function` with a "did you mean") and the evaluator (`arcade/unsupported-function`).
///
///     ArcadeFunctionCatalog.isKnown("iif")                // true
///     ArcadeFunctionCatalog.suggestion(for: "Lenght")    // "Length"
public enum ArcadeFunctionCatalog {
    public static let categories: [(category: String, names: [String])] = [
        ("Logical", ["Boolean", "Console", "Decode", "DefaultValue", "IIf", "IsEmpty", "IsNan", "TypeOf", "When"]),
        ("Math", ["Abs", "Acos", "Asin", "Atan", "Atan2", "Average", "Ceil", "Constrain", "ConvertDirection", "Cos",
                  "Exp", "Floor", "Log", "Max", "Mean", "Median", "Min", "Mode", "Pow", "Random", "Round", "Sin",
                  "Sqrt", "Stdev", "Sum", "Tan", "Variance"]),
        ("Text", ["Concatenate", "Count", "Find", "FromCharCode", "FromCodePoint", "Guid", "Hash", "Left", "Lower",
                  "Mid", "Number", "Proper", "Replace", "Right", "Split", "StandardizeGuid", "Text", "ToCharCode",
                  "ToCodePoint", "ToHex", "Trim", "Upper", "UrlEncode"]),
        ("Date", ["ChangeTimeZone", "Date", "DateAdd", "DateDiff", "DateOnly", "Day", "Hour", "ISOMonth", "ISOWeek",
                  "ISOWeekday", "ISOYear", "Millisecond", "Minute", "Month", "Now", "Second", "Time", "TimeZone",
                  "TimeZoneOffset", "Timestamp", "Today", "ToLocal", "ToUTC", "Week", "Weekday", "Year"]),
        ("Array", ["All", "Any", "Array", "Back", "Count", "Distinct", "Erase", "Filter", "First", "Front", "Includes",
                   "IndexOf", "Insert", "Map", "None", "Pop", "Push", "Reduce", "Resize", "Reverse", "Slice", "Sort",
                   "Splice", "Top"]),
        ("Dictionary and data", ["Dictionary", "Expects", "Feature", "FromJSON", "GetEnvironment", "HasKey",
                                 "HasValue", "Keys", "Schema", "Domain", "DomainCode", "DomainName", "Subtypes",
                                 "SubtypeCode", "SubtypeName", "GdbVersion", "NextSequenceValue", "GetUser",
                                 "Portal", "Attachments", "ToJSON"]),
        ("FeatureSet", ["FeatureSet", "FeatureSetById", "FeatureSetByName", "FeatureSetByPortalItem",
                        "FeatureSetByRelationshipName", "FeatureSetByRelationshipClass", "FeatureSetByAssociation",
                        "FilterBySubtypeCode", "GetFeatureSet", "GetFeatureSetInfo", "GroupBy", "OrderBy", "Top",
                        "Filter", "First", "Count", "Distinct", "Stdev", "Sum", "Variance", "Average", "Max", "Min",
                        "Mean"]),
        ("Geometry", ["Angle", "Area", "AreaGeodetic", "Bearing", "Boundary", "Buffer", "BufferGeodetic", "Centroid",
                      "Clip", "Contains", "ConvexHull", "Crosses", "Cut", "Densify", "DensifyGeodetic", "Difference",
                      "Disjoint", "Distance", "DistanceGeodetic", "DistanceToCoordinate", "EnvelopeIntersects", "Equals", "Extent",
                      "Generalize", "Geometry", "Intersection", "Intersects", "IsSelfIntersecting", "IsSimple",
                      "Length", "Length3D", "LengthGeodetic", "MeasureToCoordinate", "Multipoint",
                      "MultiPartToSinglePart", "NearestCoordinate", "NearestVertex", "Offset", "Overlaps", "Point",
                      "PointToCoordinate", "Polygon", "Polyline", "RingIsClockwise", "Rotate", "SetGeometry",
                      "Simplify", "SymmetricDifference", "Touches", "Union", "Within"]),
        ("Track", ["TrackAccelerationAt", "TrackAccelerationWindow", "TrackCurrentAcceleration",
                   "TrackCurrentDistance", "TrackCurrentSpeed", "TrackCurrentTime", "TrackDistanceAt",
                   "TrackDistanceWindow", "TrackDuration", "TrackFieldWindow", "TrackGeometryWindow", "TrackIndex",
                   "TrackSpeedAt", "TrackSpeedWindow", "TrackStartTime", "TrackWindow"]),
        ("Knowledge graph", ["KnowledgeGraphByPortalItem", "QueryGraph"]),
    ]

    /// Every reference name by lower-cased name.
    static let names: [String: String] = {
        var table: [String: String] = [:]
        for (_, names) in categories {
            for name in names { table[name.lowercased()] = name }
        }
        return table
    }()

    /// Whether `name` (any case) is a function of the Arcade function reference. Looks among the few names of its
    /// length and first letter, comparing bytes without regard to ASCII case (no hashing, no lower-cased copy).
    public static func isKnown(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let bucket = bucketIndex(bytes) else { return false }
            for candidate in buckets[bucket] where candidate.count == bytes.count {
                var same = true
                for offset in 0..<bytes.count {
                    let byte = bytes[offset]
                    if candidate[offset] != (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) { same = false; break }
                }
                if same { return true }
            }
            return false
        }
    }

    /// The lower-cased names (bytes), by `bucketIndex`.
    static let buckets: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: (maximumLength + 1) * 27)
        for folded in names.keys {
            let bytes = Array(folded.utf8)
            if let index = bytes.withUnsafeBufferPointer(bucketIndex) { table[index].append(bytes) }
        }
        return table
    }()

    /// No reference name is longer (the longest, FeatureSetByRelationshipClass, has 29 letters).
    static let maximumLength = 64

    /// A name's bucket: its length and its first letter (a-z in any case, or anything else); nil for an empty or
    /// overlong name.
    static func bucketIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, bytes.count <= maximumLength else { return nil }
        let folded = first >= 0x41 && first <= 0x5A ? first | 0x20 : first
        let letter = folded >= 0x61 && folded <= 0x7A ? Int(folded - 0x61) : 26
        return bytes.count * 27 + letter
    }

    /// The reference's spelling of `name` (any case), or nil when it is no Arcade function.
    public static func referenceName(of name: String) -> String? { names[name.lowercased()] }

    /// The closest reference name to a name that is not one (edit distance at most 2, or a third of the name's
    /// length for long names), for "did you mean"; nil when nothing is close.
    public static func suggestion(for name: String) -> String? {
        let folded = Array(name.lowercased().unicodeScalars)
        guard !folded.isEmpty, folded.count <= 64 else { return nil }
        let allowed = max(1, min(3, folded.count / 3))
        var best: (name: String, distance: Int)?
        for (candidate, spelled) in names.sorted(by: { $0.key < $1.key }) {
            let other = Array(candidate.unicodeScalars)
            if abs(other.count - folded.count) > allowed { continue }
            let distance = editDistance(folded, other)
            if distance <= allowed, distance < (best?.distance ?? Int.max) { best = (spelled, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
