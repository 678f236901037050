import Foundation
import Testing
import Arcade

/// The examples of https://developers.arcgis.com/arcade/function-reference/text_functions/ (and the constants page),
/// each as the page gives it, then the decisions docs/arcade.md records where the page is silent.
@Suite struct TextFunctionTests {
    static let page = "https://developers.arcgis.com/arcade/function-reference/text_functions/"

    @Test("Reference examples: Left, Right, Mid, Lower, Upper, Trim, Proper, Replace, Find")
    func referenceExamples() throws {
        #expect(try callArcade("Left", text("the quick brown fox"), number(3)).described == "Text:the")
        #expect(try callArcade("Right", text("the quick brown fox"), number(3)).described == "Text:fox")
        #expect(try callArcade("Mid", text("the quick brown fox"), number(4), number(5)).described == "Text:quick")
        #expect(try callArcade("Lower", text("HELLO")).described == "Text:hello")
        #expect(try callArcade("Upper", text("Hello")).described == "Text:HELLO")
        #expect(try callArcade("Trim", text("   hello world")).described == "Text:hello world")
        #expect(try callArcade("Proper", text("the quick brown fox"), text("everyword")).described
            == "Text:The Quick Brown Fox")
        #expect(try callArcade("Replace", text("the quick brown fox"), text("brown"), text("red")).described
            == "Text:the quick red fox")
        #expect(try callArcade("Find", text("380"), text("Esri, 380 New York Street"), number(0)).described
            == "Number:6")
    }

    @Test("Reference examples: Concatenate, Split, ToHex with Concatenate")
    func concatenateAndSplit() throws {
        let colors = ArcadeValue.array(ArcadeArray([text("red"), text("blue"), text("green")]))
        #expect(try callArcade("Concatenate", colors, text("/")).described == "Text:red/blue/green")
        let split = try callArcade("Split", text("red,green,blue,orange"), text(","), number(2))
        #expect(split.described == "Array:[\"red\",\"green\"]")
        // data_functions/#tohex: Concatenate("#", ToHex(65), ToHex(105), ToHex(225)) is "#4169E1"
        let r = try callArcade("ToHex", number(65)), g = try callArcade("ToHex", number(105))
        let b = try callArcade("ToHex", number(225))
        #expect(try callArcade("Concatenate", text("#"), r, g, b).described == "Text:#4169E1")
        #expect(try callArcade("ToHex", number(100)).described == "Text:64")
    }

    @Test("Reference examples: character codes and code points")
    func characterCodes() throws {
        #expect(try callArcade("FromCharCode", number(88), number(89), number(90)).described == "Text:XYZ")
        #expect(try callArcade("FromCharCode", number(55356), number(57097)).described == "Text:🌉")
        #expect(try callArcade("FromCodePoint", number(88), number(89), number(90)).described == "Text:XYZ")
        #expect(try callArcade("FromCodePoint", number(127753)).described == "Text:🌉")
        #expect(try callArcade("ToCharCode", text("XYZ")).described == "Number:88")
        #expect(try callArcade("ToCharCode", text("XYZ"), number(1)).described == "Number:89")
        #expect(try callArcade("ToCharCode", text("\u{FFFF}\u{FFFE}")).described == "Number:65535")
        #expect(try callArcade("ToCharCode", text("🌉")).described == "Number:55356")
        #expect(try callArcade("ToCharCode", text("🌉"), number(1)).described == "Number:57097")
        #expect(try callArcade("ToCodePoint", text("XYZ")).described == "Number:88")
        #expect(try callArcade("ToCodePoint", text("XYZ"), number(1)).described == "Number:89")
        #expect(try callArcade("ToCodePoint", text("🌉")).described == "Number:127753")
        #expect(try callArcade("ToCodePoint", text("🌉"), number(1)).described == "Number:57097")
    }

    @Test("Reference example: UrlEncode of a dictionary, keys in order")
    func urlEncode() throws {
        let params = ArcadeValue.dictionary(ArcadeDictionary([
            ("itemID", text("36ff9e8c13e042a58cfce4ad87f55d19")), ("center", text("43.567,-117.380")),
        ]))
        let encoded = try callArcade("UrlEncode", params)
        #expect("arcgis-survey123://?" + encoded.textValue
            == "arcgis-survey123://?center=43.567%2C-117.380&itemID=36ff9e8c13e042a58cfce4ad87f55d19")
        #expect(try callArcade("UrlEncode", text("a b&c=d/é")).textValue == "a%20b%26c%3Dd%2F%C3%A9")
    }

    @Test("Reference examples: Guid shapes and StandardizeGuid formats")
    func guids() throws {
        let braces = try callArcade("Guid").textValue
        #expect(braces.count == 38 && braces.hasPrefix("{") && braces.hasSuffix("}"))
        let digits = try callArcade("Guid", text("digits")).textValue
        #expect(digits.count == 32 && digits.allSatisfy(\.isHexDigit))
        #expect(try callArcade("Guid", text("digits-hyphen-parentheses")).textValue.hasPrefix("("))
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Guid", text("bogus")) }
        let guid = text("{DB894515-ED21-4DF1-AF67-36232256F59A}")
        #expect(try callArcade("StandardizeGuid", guid, text("digits")).textValue == "db894515ed214df1af6736232256f59a")
        #expect(try callArcade("StandardizeGuid", text("db894515ed214df1af6736232256f59a"), text("digits-hyphen")).textValue
            == "db894515-ed21-4df1-af67-36232256f59a")
        #expect(try callArcade("StandardizeGuid", text("not a guid"), text("digits")).textValue == "")
    }

    @Test("Constants page: TextFormatting members")
    func textFormatting() throws {
        // https://developers.arcgis.com/arcade/function-reference/constants/
        guard case .dictionary(let constants) = ArcadeFunctionLibrary.constants["textformatting"]! else {
            Issue.record("TextFormatting is not a dictionary"); return
        }
        #expect(constants["NewLine"]?.textValue == "\n")
        #expect(constants["backwardslash"]?.textValue == "\\")
        #expect(constants["DoubleQuote"]?.textValue == "\"")
        #expect(constants["ForwardSlash"]?.textValue == "/")
        #expect(constants["SingleQuote"]?.textValue == "'")
        #expect(constants["Tab"]?.textValue == "\t")
        // Returns "T2N\nR1W"
        #expect("T" + "2N" + constants["NewLine"]!.textValue + "R" + "1W" == "T2N\nR1W")
    }

    @Test("Decisions where the page is silent (docs/arcade.md, Text)")
    func decisions() throws {
        #expect(try callArcade("Left", text("abc"), number(-1)).textValue == "")
        #expect(try callArcade("Left", text("abc"), number(10)).textValue == "abc")
        #expect(try callArcade("Left", number(12345), number(2)).textValue == "12")
        #expect(try callArcade("Right", text("abc"), number(10)).textValue == "abc")
        #expect(try callArcade("Mid", text("abc"), number(-2), number(2)).textValue == "ab")
        #expect(try callArcade("Proper", text("the QUICK  brown"), text("firstword")).textValue == "The quick  brown")
        #expect(try callArcade("Proper", text("the QUICK brown")).textValue == "The Quick Brown")
        #expect(try callArcade("Replace", text("a-b-c"), text("-"), text("+"), .boolean(false)).textValue == "a+b-c")
        #expect(try callArcade("Replace", text("abc"), text(""), text("-")).textValue == "a-b-c")
        #expect(try callArcade("Find", text("x"), text("abc")).textValue == "-1")
        #expect(try callArcade("Find", text("b"), text("abcb"), number(2)).textValue == "3")
        let removeEmpty = try callArcade("Split", text("a,,b,"), text(","), number(-1), .boolean(true))
        #expect(removeEmpty.textValue == "[\"a\",\"b\"]")
        #expect(try callArcade("Split", text("abc"), text("")).textValue == "[\"a\",\"b\",\"c\"]")
        #expect(try callArcade("Concatenate", text("a"), number(1), .boolean(true)).textValue == "a1true")
        let numbers = ArcadeValue.array(ArcadeArray([number(1), number(2.5)]))
        #expect(try callArcade("Concatenate", numbers, text(", "), text("0.00")).textValue == "1.00, 2.50")
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Proper", text("a"), text("everyletter")) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("ToCharCode", text("abc"), number(3)) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("FromCodePoint", number(-1)) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("FromCharCode", number(.nan)) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Left", text("abc"), number(.infinity)) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("ToHex", number(1e300)) }
        #expect(try callArcade("ToHex", number(-255)).textValue == "-FF")
    }

    @Test("Hostile input: 10 MB texts and huge counts finish quickly with a result or a clear error")
    func hostileInput() throws {
        let big = String(repeating: "ab", count: 5_000_000)
        let start = Date()
        #expect(try callArcade("Left", text(big), number(1e300)).textValue.utf16.count == 10_000_000)
        #expect(try callArcade("Find", text("abc"), text(big)).textValue == "-1")
        #expect(try callArcade("Replace", text(big), text("ab"), text("x")).textValue.utf16.count == 5_000_000)
        #expect(throws: ArcadeFunctionError.self) {
            try callArcade("Replace", text(big), text(""), text(String(repeating: "y", count: 100)))
        }
        #expect(try callArcade("Upper", text(big)).textValue.utf16.count == 10_000_000)
        // A bound that catches quadratic work (hours on 10 MB), not speed: a debug build on a loaded machine takes
        // tens of seconds here; the release timing is in docs/arcade.md.
        #expect(Date().timeIntervalSince(start) < 120)
    }
}
