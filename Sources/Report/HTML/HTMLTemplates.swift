import Mustache

/// The Mustache templates of the HTML reports, parsed once. Rendering escapes every `{{value}}` for HTML
/// (swift-mustache's default content type), so a map's titles, field names and messages always show as text.
enum HTMLTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in [("head", headText), ("lint", LintPageTemplate.text), ("inspect", InspectPageTemplate.text)] {
            // The templates are constants of this module; a test renders each, so a parse error cannot ship.
            if let template = try? MustacheTemplate(string: text) { library.register(template, named: name) }
        }
        return library
    }()

    /// The start of every page's `<head>` (a partial, `{{> head}}`): the policy that forbids script and requests,
    /// and the inline stylesheet. The page's own `<title>` and `</head>` follow it.
    static let headText = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="{{{policy}}}">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>{{{css}}}</style>
        """

    /// `page` rendered with the template `name`; a page that says so if the template is missing.
    static func render(_ page: Any, template name: String) -> String {
        library.render(page, withTemplate: name) ?? "<!DOCTYPE html><title>MapRules</title><p>internal error: the \(name) template did not parse.</p>\n"
    }
}
