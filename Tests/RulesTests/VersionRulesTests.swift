import Testing
import Rules

private func violations(_ name: String, owner: String? = "editor01", existing: [String] = [], access: String? = nil) -> [VersionViolation] {
    VersionNameCheck.violations(of: VersionCandidate(name: name, owner: owner, existingNames: existing, access: access))
}

@Suite struct VersionRulesTests {
    @Test func periodIsForbiddenAndPositioned() {
        let found = violations("editor.01")
        #expect(found.map(\.ruleId) == ["version/name-forbidden-character"])
        #expect(found.first?.message.contains("a period at position 7") == true)
        #expect(!VersionNameCheck.isValid(VersionCandidate(name: "editor.01", owner: "editor01")))
    }

    @Test func everyForbiddenCharacterIsNamed() {
        let message = violations("a;b'c\"d").first?.message ?? ""
        #expect(message.contains("a semicolon at position 2, a single quote at position 4 and a double quote at position 6"))
    }

    @Test func positionsCountCharactersAsAPersonSeesThem() {
        // "👩‍👩‍👧" is one character of five scalars; "é" written as e + combining accent is one character.
        let message = violations("👩‍👩‍👧e\u{301}.x").first?.message ?? ""
        #expect(message.contains("a period at position 3"))
    }

    @Test func lengthCountsCharacters() {
        #expect(violations(String(repeating: "👩‍👩‍👧", count: 62)).isEmpty)
        let long = violations(String(repeating: "e\u{301}", count: 63))
        #expect(long.map(\.ruleId) == ["version/name-too-long"])
        #expect(long.first?.message.contains("63 characters") == true)
    }

    @Test(arguments: ["", " ", "\t", " \n "])
    func blankNamesAreOnlyEmpty(name: String) {
        #expect(violations(name).map(\.ruleId) == ["version/name-empty"])
    }

    @Test func leadingAndTrailingSpaces() {
        #expect(violations(" MyWork").map(\.ruleId) == ["version/name-leading-space"])
        #expect(violations("\u{00A0}MyWork").map(\.ruleId) == ["version/name-leading-space"])
        let trailing = violations("MyWork ")
        #expect(trailing.map(\.ruleId) == ["version/name-trailing-space"])
        #expect(trailing.first?.severity == .warning)
        // A warning does not make the name invalid.
        #expect(VersionNameCheck.isValid(VersionCandidate(name: "MyWork ", owner: "editor01")))
        #expect(violations("My Work").isEmpty)
    }

    /// Issue 31, item 8: a right-to-left override (U+202E, shown as nothing, reversing what follows) was
    /// accepted in a name and in the owner; it is a control character for version/name-control-character.
    @Test func bidirectionalControlsAreControlCharacters() {
        let found = violations("Work\u{202E}kroW")
        #expect(found.map(\.ruleId) == ["version/name-control-character"])
        #expect(found.first?.message.contains("U+202E at position 5") == true, "\(found)")
        #expect(violations("Work\u{2067}x\u{2069}").map(\.ruleId) == ["version/name-control-character"])
        let owner = violations("MyWork", owner: "editor\u{202E}10")
        #expect(owner.map(\.ruleId) == ["version/name-control-character"])
        #expect(owner.first?.message.contains("The owner contains") == true, "\(owner)")
        #expect(violations("Mein Büro שלום").isEmpty)
    }

    /// Issue 31, item 8: `--owner ''` was accepted and printed the qualified name `.MyWork`.
    @Test func anEmptyOwnerIsRefused() {
        let found = violations("MyWork", owner: "")
        #expect(found.map(\.ruleId) == ["version/name-empty"])
        #expect(found.first?.message.contains("'.MyWork'") == true, "\(found)")
        #expect(violations("MyWork", owner: "  ").map(\.ruleId) == ["version/name-empty"])
        #expect(violations("MyWork", owner: nil).isEmpty)
        #expect(!VersionNameCheck.isValid(VersionCandidate(name: "MyWork", owner: "")))
    }

    @Test func controlCharacters() {
        let found = violations("My\tWork\u{7}")
        #expect(found.map(\.ruleId) == ["version/name-control-character"])
        #expect(found.first?.message.contains("a tab (U+0009) at position 3") == true)
        #expect(found.first?.message.contains("U+0007 at position 8") == true)
    }

    @Test func uniquenessIsCaseInsensitiveOnTheQualifiedName() {
        #expect(violations("MyWork", existing: ["EDITOR01.MYWORK"]).map(\.ruleId) == ["version/name-not-unique"])
        #expect(violations("MyWork", existing: ["editor02.MyWork", "MyWork"]).isEmpty)
        #expect(violations("MyWork", owner: nil, existing: ["mywork"]).map(\.ruleId) == ["version/name-not-unique"])
        #expect(VersionCandidate(name: "MyWork", owner: "editor01").qualifiedName == "editor01.MyWork")
    }

    @Test func accessIsCheckedCaseInsensitivelyWhenGiven() {
        #expect(violations("MyWork", access: nil).isEmpty)
        for access in ["public", "PROTECTED", "Private"] { #expect(violations("MyWork", access: access).isEmpty) }
        let found = violations("MyWork", access: "publc")
        #expect(found.map(\.ruleId) == ["version/access-invalid"])
        #expect(found.first?.message.contains("'publc'") == true)
        #expect(found.first?.message.contains("Did you mean 'public'?") == true)
    }
}
