import Testing
import WebMap

/// "Did you mean" among prepared candidates: the bounded search gives what measuring every candidate in full
/// gives (the first of the closest within the limit), and a map's worth of titles is searched in linear time.
@Suite struct EditDistanceTests {
    /// The answer by the definition: every candidate's full distance, the first of the smallest within the limit.
    static func closestByFullDistance(to text: String, in candidates: [String], maximumDistance: Int? = nil) -> String? {
        let limit = maximumDistance ?? max(2, text.count / 3)
        var best: (String, Int)?
        for candidate in candidates {
            let d = EditDistance.distance(text.lowercased(), candidate.lowercased())
            if d <= limit, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    @Test func boundedSearchGivesTheFullSearchAnswer() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcAB é-12")
        func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) }
        for _ in 0..<300 {
            let candidates = (0..<Int.random(in: 0...12, using: &generator)).map { _ in word(Int.random(in: 0...9, using: &generator)) }
            let text = word(Int.random(in: 0...9, using: &generator))
            let limit: Int? = Bool.random(using: &generator) ? nil : Int.random(in: 0...5, using: &generator)
            let prepared = EditDistance.Candidates(candidates)
            #expect(EditDistance.closest(to: text, in: prepared, maximumDistance: limit)
                    == Self.closestByFullDistance(to: text, in: candidates, maximumDistance: limit), "\(text) in \(candidates), limit \(String(describing: limit))")
            #expect(EditDistance.closest(to: text, in: candidates, maximumDistance: limit)
                    == Self.closestByFullDistance(to: text, in: candidates, maximumDistance: limit))
        }
    }

    @Test func tiesGoToTheFirstCandidateAndCaseIsIgnored() {
        #expect(EditDistance.closest(to: "Trees", in: ["Treas", "Trees2", "TREES", "trees"]) == "TREES")
        #expect(EditDistance.closest(to: "Parks", in: ["Barks", "Parts"]) == "Barks")
        #expect(EditDistance.closest(to: "Missing 12", in: ["Trees 12", "Trees 13"]) == nil)
    }
}
