import Foundation

/// One tab of a ``Chromium``: navigate, read the rendered DOM, run a check in the page, take a screenshot.
struct BrowserPage {
    let browser: Chromium
    let session: String

    /// Opens a tab of `width` × `height` CSS pixels.
    static func open(in browser: Chromium, width: Int = 1280, height: Int = 900) async throws -> BrowserPage {
        let target = try await browser.send("Target.createTarget", ["url": "about:blank"])
        guard let targetId = target["targetId"] as? String else { throw BrowserError(description: "no target id") }
        let attached = try await browser.send("Target.attachToTarget", ["targetId": targetId, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw BrowserError(description: "no session id") }
        let page = BrowserPage(browser: browser, session: session)
        try await page.send("Page.enable")
        try await page.send("Runtime.enable")
        try await page.send("Log.enable")
        try await page.send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
        return page
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        try await browser.send(method, params, session: session)
    }

    /// Loads `url` and waits until the document is complete.
    func navigate(_ url: String) async throws {
        let answer = try await send("Page.navigate", ["url": url])
        if let error = answer["errorText"] as? String, !error.isEmpty { throw BrowserError(description: "loading \(url): \(error)") }
        try await waitUntilComplete(what: url)
    }

    /// Submits the form matching `selector` after setting its fields (name → value), as a person would by typing
    /// and pressing the button, then waits for the page the form leads to.
    func submitForm(_ selector: String, fields: [String: String]) async throws {
        let values = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let script = """
            (() => { const form = document.querySelector(\(jsString(selector)));
              if (!form) return "no form";
              const values = \(values);
              for (const name in values) { const input = form.elements[name]; if (!input) return "no field " + name; input.value = values[name]; }
              window.__maprulesBeforeSubmit = true;
              const button = form.querySelector("[type=submit]");
              if (button) button.click(); else form.submit();
              return "ok"; })()
            """
        let result = try await evaluate(script) as? String
        guard result == "ok" else { throw BrowserError(description: "submitting \(selector): \(result ?? "no result")") }
        try await waitUntilComplete(what: "the page after submitting \(selector)", newDocument: true)
    }

    /// Follows the link matching `selector` (a click).
    func click(_ selector: String) async throws {
        let result = try await evaluate("""
            (() => { const link = document.querySelector(\(jsString(selector))); if (!link) return "none";
              window.__maprulesBeforeSubmit = true; link.click(); return "ok"; })()
            """) as? String
        guard result == "ok" else { throw BrowserError(description: "nothing matches \(selector)") }
        try await waitUntilComplete(what: "the page after clicking \(selector)", newDocument: true)
    }

    private func waitUntilComplete(what: String, newDocument: Bool = false) async throws {
        let check = newDocument
            ? "window.__maprulesBeforeSubmit === undefined && document.readyState === 'complete'"
            : "document.readyState === 'complete'"
        for _ in 0..<300 {
            if let done = try? await evaluate(check) as? Bool, done { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw BrowserError(description: "\(what) did not finish loading within 15 s")
    }

    /// The value of a JavaScript expression evaluated in the page (DevTools evaluation, not subject to the page's
    /// Content-Security-Policy): a string, number, bool, array or object.
    func evaluate(_ expression: String) async throws -> Any? {
        let answer = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = answer["exceptionDetails"] as? [String: Any] {
            throw BrowserError(description: "script failed: \(exception["text"] ?? exception)")
        }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// The rendered document as HTML (`document.documentElement.outerHTML`).
    func dom() async throws -> String { try await evaluate("document.documentElement.outerHTML") as? String ?? "" }

    /// The text of the elements matching `selector` (`textContent`, trimmed: also inside collapsed `<details>`).
    func texts(_ selector: String) async throws -> [String] {
        try await evaluate("Array.from(document.querySelectorAll(\(jsString(selector)))).map(e => e.textContent.trim())") as? [String] ?? []
    }

    /// How many elements match `selector`.
    func count(_ selector: String) async throws -> Int {
        try await evaluate("document.querySelectorAll(\(jsString(selector))).length") as? Int ?? -1
    }

    /// Saves a PNG of the whole page (beyond the viewport) to `path`.
    func screenshot(to path: String) async throws {
        let metrics = try await send("Page.getLayoutMetrics")
        let size = metrics["cssContentSize"] as? [String: Any] ?? metrics["contentSize"] as? [String: Any] ?? [:]
        let width = (size["width"] as? Double) ?? 1280, height = min((size["height"] as? Double) ?? 900, 12_000)
        let shot = try await send("Page.captureScreenshot", [
            "format": "png", "captureBeyondViewport": true,
            "clip": ["x": 0, "y": 0, "width": width, "height": height, "scale": 1],
        ], timeout: 60)
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw BrowserError(description: "no screenshot data")
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Messages the page logged as errors (a Content-Security-Policy violation among them) and script exceptions.
    func errors() -> [String] {
        browser.seenEvents(session: session).compactMap { event in
            switch event.method {
            case "Log.entryAdded":
                guard let entry = event.params["entry"] as? [String: Any], entry["level"] as? String == "error" else { return nil }
                return entry["text"] as? String
            case "Runtime.exceptionThrown":
                return ((event.params["exceptionDetails"] as? [String: Any])?["text"] as? String) ?? "exception"
            default:
                return nil
            }
        }
    }

    private func jsString(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8), as: UTF8.self).dropFirst().dropLast().description
    }
}

extension BrowserPage {
    fileprivate func send(_ method: String, _ params: [String: Any] = [:], timeout: Double) async throws -> [String: Any] {
        try await browser.send(method, params, session: session, timeout: timeout)
    }
}

/// Where the browser tests save their screenshots: a git-ignored folder at the package root.
enum Screenshots {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".screenshots").path
    }()

    static func path(_ name: String) -> String { "\(folder)/\(name).png" }
}
