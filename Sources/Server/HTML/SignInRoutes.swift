import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// Signing a person in and out of the HTML directory with a form (no script):
/// - `GET /arcgis/rest/login?next=/arcgis/...` shows the form;
/// - `POST /arcgis/rest/login` (username, password, next; form-urlencoded) exchanges the credentials for a
///   token through the core (`generateToken`, as the JSON token routes do), keeps it in the `BrowserSession`
///   cookie and answers 303 to `next` (a local `/arcgis/` path, else the catalogue). Wrong credentials: the
///   form again with a message, HTTP 200, no cookie;
/// - `GET /arcgis/rest/logout` shows a sign-out button, `POST /arcgis/rest/logout` revokes the token, clears
///   the cookie and answers 303 to the catalogue.
/// The token only ever travels in the `Set-Cookie` header: never in a URL, a `Location` or a page.
struct SignInRoutes {
    let core: ServiceCore
    let site: SiteInfo

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        router.get("arcgis/rest/login", use: form)
        router.post("arcgis/rest/login", use: signIn)
        router.get("arcgis/rest/logout", use: signOutForm)
        router.post("arcgis/rest/logout", use: signOut)
    }

    struct SignInPage {
        var chrome: HTMLPages.Chrome
        var next: String
        var username: String
        var failure: String?
        var hours = BrowserSession.lifetimeMinutes / 60
        var version = SiteInfo.serverFullVersion
    }

    @Sendable func form(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try page(request, context, next: BrowserSession.safeNext(context.arguments.string("next")), username: "", failure: nil)
    }

    @Sendable func signIn(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        let next = BrowserSession.safeNext(a.string("next"))
        let username = a.string("username") ?? ""
        let issued: IssuedToken
        do {
            guard !username.isEmpty, let password = a.string("password") else {
                throw ServiceError.invalidParameter("Enter a user name and a password.")
            }
            issued = try await core.generateToken(username: username, password: password, expirationMinutes: BrowserSession.lifetimeMinutes)
        } catch let error as ServiceError {
            let failure = error.code == 400 && error.message == "Unable to generate token." ? "Wrong user name or password." : error.details.first ?? error.message
            return try page(request, context, next: next, username: username, failure: failure)
        }
        context.notes.username = username
        let seconds = Int((issued.expires - Int64(Date().timeIntervalSince1970 * 1000)) / 1000)
        var response = Response(status: .seeOther, headers: [.location: next, .cacheControl: "no-store"])
        response.setCookie(BrowserSession.signInCookie(token: issued.token, maxAgeSeconds: seconds, secure: site.tls))
        return response
    }

    @Sendable func signOutForm(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let chrome = HTMLPages.chrome(request, context, title: "Sign out", crumbs: [HTMLPages.home, HTMLPages.Crumb(label: "Sign out")], jsonHref: nil)
        return try HTMLPages.render("signout", SignInPage(chrome: chrome, next: BrowserSession.home, username: "", failure: nil))
    }

    @Sendable func signOut(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if let token = BrowserSession.cookieToken(request) { try? await core.revoke(token: token) }
        var response = Response(status: .seeOther, headers: [.location: BrowserSession.safeNext(context.arguments.string("next")), .cacheControl: "no-store"])
        response.setCookie(BrowserSession.signOutCookie(secure: site.tls))
        return response
    }

    private func page(_ request: Request, _ context: MapRulesRequestContext, next: String, username: String, failure: String?) throws -> Response {
        var chrome = HTMLPages.chrome(request, context, title: "Sign in", crumbs: [HTMLPages.home, HTMLPages.Crumb(label: "Sign in")], jsonHref: nil)
        chrome.signInHref = HTMLPages.link("/arcgis/rest/login", [("next", next)])
        return try HTMLPages.render("signin", SignInPage(chrome: chrome, next: next, username: username, failure: failure))
    }
}
