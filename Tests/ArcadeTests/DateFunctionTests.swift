import Foundation
import Testing
import Arcade

/// The examples of https://developers.arcgis.com/arcade/function-reference/date_functions/ with the instant and zone
/// fixed (UTC unless a zone is named), then the decisions docs/arcade.md records where the page is silent.
@Suite struct DateFunctionTests {
    @Test("Date signatures: parts (month 0-based), epoch, ISO 8601 text, none")
    func dateSignatures() throws {
        #expect(try arcadeDate(1987, 5, 2).textValue == "1987-06-02T00:00:00.000Z")
        #expect(try callArcade("Date", number(1476987783555)).textValue == "2016-10-20T18:23:03.555Z")
        #expect(try callArcade("Date", text("2016-10-20T17:41:37+00:00")).textValue == "2016-10-20T17:41:37.000Z")
        #expect(try callArcade("Date", text("2016-10-20T17:41:37-07:00")).textValue == "2016-10-21T00:41:37.000Z")
        #expect(try callArcade("Date", text("2016-10-20")).textValue == "2016-10-20T00:00:00.000Z")
        #expect(try callArcade("Date").textValue == "2016-10-24T19:09:34.123Z")
        #expect(try arcadeDate(2020, 12, 1).textValue == "2021-01-01T00:00:00.000Z")
        #expect(try arcadeDate(2020, 1, 30, 25, 0, 0, 500).textValue == "2020-03-02T01:00:00.500Z")
        #expect(try callArcade("Date", text("not a date")).described == "Null:")
    }

    @Test("Reference examples on Date(1980, 11, 31): Month, Weekday, ISOMonth, ISOWeek, ISOWeekday, ISOYear")
    func partsOfNewYearsEve() throws {
        let date = try arcadeDate(1980, 11, 31)
        #expect(try callArcade("Month", date).described == "Number:11")
        #expect(try callArcade("Weekday", date).described == "Number:3")
        #expect(try callArcade("ISOMonth", date).described == "Number:12")
        #expect(try callArcade("ISOWeek", date).described == "Number:1")
        #expect(try callArcade("ISOWeekday", date).described == "Number:3")
        #expect(try callArcade("ISOYear", date).described == "Number:1981")
        #expect(try callArcade("Year", date).described == "Number:1980")
        #expect(try callArcade("Day", date).described == "Number:31")
    }

    @Test("Reference examples: Week with and without a start day")
    func week() throws {
        #expect(try callArcade("Week", try arcadeDate(1974, 0, 3)).described == "Number:0")
        #expect(try callArcade("Week", try arcadeDate(1974, 0, 3), number(4)).described == "Number:1")
        #expect(try callArcade("Week", try arcadeDate(1974, 0, 3), number(5)).described == "Number:0")
        #expect(try callArcade("Week", try arcadeDate(1945, 8, 23)).described == "Number:38")
        #expect(try callArcade("Week", try arcadeDate(2022, 7, 20)).described == "Number:33")
    }

    @Test("Parts of the current time with Now fixed: Hour, Minute, Second, Millisecond, Day, Year")
    func partsOfNow() throws {
        let now = try callArcade("Now")
        #expect(try callArcade("Year", now).textValue == "2016")
        #expect(try callArcade("Day", now).textValue == "24")
        #expect(try callArcade("Hour", now).textValue == "19")
        #expect(try callArcade("Minute", now).textValue == "9")
        #expect(try callArcade("Second", now).textValue == "34")
        #expect(try callArcade("Millisecond", now).textValue == "123")
        #expect(try callArcade("Today").textValue == "2016-10-24T00:00:00.000Z")
        #expect(try callArcade("Timestamp").textValue == "2016-10-24T19:09:34.123Z")
        let pacific = TextDateTestContext(zone: TimeZone(identifier: "America/Los_Angeles")!)
        #expect(try callArcade("Now", context: pacific).textValue == "2016-10-24T12:09:34.123-07:00")
        #expect(try callArcade("Today", context: pacific).textValue == "2016-10-24T00:00:00.000-07:00")
        #expect(try callArcade("Timestamp", context: pacific).textValue == "2016-10-24T19:09:34.123Z")
    }

    @Test("Reference examples: ChangeTimeZone, TimeZone, TimeZoneOffset, ToUTC, ToLocal")
    func zones() throws {
        let newYork = try arcadeDate(2011, 10, 11, 8, 0, 0, 0, zone: "America/New_York")
        #expect(try callArcade("ChangeTimeZone", newYork, text("America/Los_Angeles")).textValue
            == "2011-11-11T05:00:00.000-08:00")
        let unknown = try arcadeDate(2011, 10, 11, 8, 0, 0, 0, zone: "unknown")
        #expect(unknown.textValue == "2011-11-11T08:00:00.000")
        #expect(try callArcade("ChangeTimeZone", unknown, text("+07:00")).textValue == "2011-11-11T08:00:00.000+07:00")
        #expect(try callArcade("TimeZone", newYork).textValue == "America/New_York")
        #expect(try callArcade("TimeZone", unknown).textValue == "Unknown")
        #expect(try callArcade("TimeZoneOffset", newYork).textValue == "-300")
        #expect(try callArcade("ToUTC", newYork).textValue == "2011-11-11T13:00:00.000Z")
        #expect(try callArcade("ToLocal", newYork).textValue == "2011-11-11T13:00:00.000Z")
        let offset = try callArcade("ChangeTimeZone", newYork, text("+05:30"))
        #expect(try callArcade("TimeZone", offset).textValue == "+05:30")
        #expect(throws: ArcadeFunctionError.self) { try callArcade("ChangeTimeZone", newYork, text("Mars/Olympus")) }
    }

    @Test("DateAdd: the page's 7 days, calendar months and years, fixed units")
    func dateAdd() throws {
        let start = try arcadeDate(2017, 0, 31, 10, 30)
        #expect(try callArcade("DateAdd", start, number(7), text("days")).textValue == "2017-02-07T10:30:00.000Z")
        #expect(try callArcade("DateAdd", start, number(1), text("months")).textValue == "2017-02-28T10:30:00.000Z")
        #expect(try callArcade("DateAdd", start, number(-1), text("years")).textValue == "2016-01-31T10:30:00.000Z")
        #expect(try callArcade("DateAdd", start, number(90), text("minutes")).textValue == "2017-01-31T12:00:00.000Z")
        #expect(try callArcade("DateAdd", start, number(1500)).textValue == "2017-01-31T10:30:01.500Z")
        #expect(try callArcade("DateAdd", start, number(2), text("weeks")).textValue == "2017-02-14T10:30:00.000Z")
        #expect(try callArcade("DateAdd", start, number(1.5), text("days")).textValue == "2017-02-01T22:30:00.000Z")
        // Across a daylight-saving change, a day is a calendar day (23 hours here).
        let spring = try arcadeDate(2021, 2, 13, 12, 0, 0, 0, zone: "America/New_York")
        #expect(try callArcade("DateAdd", spring, number(1), text("day")).textValue == "2021-03-14T12:00:00.000-04:00")
        #expect(throws: ArcadeFunctionError.self) { try callArcade("DateAdd", start, number(1), text("fortnights")) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("DateAdd", start, number(1e300), text("years")) }
    }

    @Test("DateDiff: the page's age in years, fractional results, default milliseconds")
    func dateDiff() throws {
        let start = try arcadeDate(2022, 2, 23, 2, 23, 22)
        let end = try arcadeDate(2022, 2, 23, 5, 53, 22)
        #expect(try callArcade("DateDiff", end, start, text("hours")).textValue == "3.5")
        #expect(try callArcade("DateDiff", start, end, text("minutes")).textValue == "-210")
        #expect(try callArcade("DateDiff", end, start).textValue == "12600000")
        let born = try arcadeDate(1990, 5, 15), today = try arcadeDate(2020, 5, 15)
        #expect(try callArcade("DateDiff", today, born, text("years")).textValue == "30")
        #expect(try callArcade("DateDiff", try arcadeDate(2020, 2, 16), try arcadeDate(2020, 1, 15), text("months")).textValue
            == "1.0333333333333334")
        #expect(try callArcade("DateDiff", try arcadeDate(2020, 0, 2, 12), try arcadeDate(2020, 0, 1), text("days")).textValue
            == "1.5")
        #expect(try callArcade("DateDiff", try arcadeDate(2020, 0, 1), try arcadeDate(2020, 0, 2, 12), text("days")).textValue
            == "-1.5")
    }

    @Test("Text with date patterns (text_functions/#text), en-US")
    func datePatterns() throws {
        let now = try callArcade("Now")
        #expect(try callArcade("Text", now, text("dddd, MMMM D, Y @ h:m:s")).textValue
            == "Monday, October 24, 2016 @ 7:9:34")
        let date = try arcadeDate(2019, 3, 1, 14, 5, 9, 42)
        let cases: [(String, String)] = [
            ("MMMM D, Y", "April 1, 2019"), ("HH:mm", "14:05"), ("dddd", "Monday"), ("DD/MM/YYYY", "01/04/2019"),
            ("ddd MMM YY", "Mon Apr 19"), ("h:mm A", "2:05 PM"), ("hh:mm:ss.SSS a", "02:05:09.042 pm"),
            ("DDD DDDD d", "91 091 1"), ("Y-MM-DD[T]HH:mm:ssZ", "2019-04-01T14:05:09+00:00"), ("[Q]M", "Q4"),
        ]
        for (pattern, expected) in cases {
            #expect(try callArcade("Text", date, text(pattern)).textValue == expected, "pattern \(pattern)")
        }
    }

    @Test("Decisions: null dates, wrong types, hostile numbers")
    func decisions() throws {
        #expect(try callArcade("Year", .null).described == "Null:")
        #expect(try callArcade("Year", number(0)).textValue == "1970")
        #expect(try callArcade("Year", text("2016-10-20")).textValue == "2016")
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Year", text("yesterday")) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Year", .boolean(true)) }
        #expect(throws: ArcadeFunctionError.self) { try arcadeDate(.nan, 0, 1) }
        #expect(throws: ArcadeFunctionError.self) { try arcadeDate(1e300, 0, 1) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Date", number(.infinity)) }
        #expect(throws: ArcadeFunctionError.self) { try callArcade("Week", try arcadeDate(2020, 0, 1), number(7)) }
    }
}

/// Dates that come from outside (a stored field of 1e300 ms, NaN) never trap a date function.
@Suite struct DateHostileInputTests {
    @Test("Dates beyond JavaScript's range or NaN give Invalid Date, NaN or a clamped part, never a crash")
    func outOfRangeDates() throws {
        for epoch in [1e300, -1e300, Double.nan, 8.64e15 + 1] {
            let date = ArcadeValue.date(ArcadeDate(epochMilliseconds: epoch))
            #expect(date.textValue == "Invalid Date")
            #expect(try callArcade("Text", date, text("Y-MM-DD")).textValue == "Invalid Date")
            _ = try callArcade("Year", date)
            _ = try callArcade("Week", date)
            _ = try callArcade("ISOWeek", date)
            let diff = try callArcade("DateDiff", date, try arcadeDate(2020, 0, 1), text("years"))
            #expect(diff.numberValue.isNaN)
            _ = try? callArcade("DateAdd", date, number(1), text("months"))
            _ = try callArcade("ChangeTimeZone", date, text("America/New_York"))
        }
    }
}
