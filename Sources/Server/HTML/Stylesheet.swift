import Foundation
import HTTPTypes
import Hummingbird

/// The one stylesheet of the HTML directory, served from `/arcgis/rest/static/maprules.css` and carried in
/// the binary as a constant. A separate resource rather than an inline `<style>`: the pages' Content
/// Security Policy allows styles from this server only (`style-src 'self'`), no inline style at all, which
/// also keeps any injected `style` attribute inert. The pages need no script.
enum Stylesheet {
    static let path = "/arcgis/rest/static/maprules.css"

    static func register(on router: some RouterMethods<MapRulesRequestContext>) {
        router.get("arcgis/rest/static/maprules.css") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600",
                                            HTTPField.Name("X-Content-Type-Options")!: "nosniff"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: Stylesheet.text)))
        }
        // Browsers ask every site for /favicon.ico: "none" (204) rather than a 404 in the console of every page.
        router.get("favicon.ico") { _, _ -> Response in
            Response(status: .noContent, headers: [.cacheControl: "public, max-age=86400"])
        }
    }

    static let text = """
    :root {
      --ink: #1d2733; --muted: #5b6b7c; --line: #d9e1ea; --zebra: #f5f8fb; --accent: #0b5cad; --bar: #17324d;
      --paper: #ffffff; --page: #eef2f6; --warn: #9a2b1d; --warn-bg: #fdeeea;
    }
    * { box-sizing: border-box; }
    html { font-size: 16px; }
    body {
      margin: 0; background: var(--page); color: var(--ink); line-height: 1.5;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
    }
    a { color: var(--accent); text-decoration: none; }
    a:hover, a:focus { text-decoration: underline; }
    code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
    .bar { background: var(--bar); color: #fff; }
    .bar-inner { max-width: 1120px; margin: 0 auto; padding: 0.8rem 1.5rem; display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
    .brand { color: #fff; font-weight: 700; font-size: 1.15rem; letter-spacing: 0.01em; }
    .brand span { font-weight: 400; opacity: 0.8; margin-left: 0.5rem; font-size: 0.95rem; }
    .brand:hover { text-decoration: none; }
    .who { font-size: 0.95rem; display: flex; align-items: center; gap: 0.4rem; }
    .who a, .who button.link { color: #cfe5ff; }
    form.inline { display: inline; margin: 0; }
    button.link { background: none; border: 0; padding: 0; font: inherit; cursor: pointer; color: var(--accent); }
    button.link:hover { text-decoration: underline; }
    .wrap { max-width: 1120px; margin: 0 auto; padding: 0 1.5rem 3rem; }
    .crumbs ol { list-style: none; margin: 0; padding: 1rem 0 0; display: flex; flex-wrap: wrap; font-size: 0.92rem; color: var(--muted); }
    .crumbs li + li::before { content: "›"; margin: 0 0.55rem; color: #9aa8b6; }
    .crumbs [aria-current] { color: var(--ink); }
    .title-row { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
    h1 { font-size: 1.75rem; margin: 0.6rem 0 0.4rem; font-weight: 650; }
    h2 { font-size: 1.2rem; margin: 2rem 0 0.6rem; font-weight: 650; }
    .kind { color: var(--muted); font-weight: 400; font-size: 1.1rem; margin-left: 0.4rem; }
    .json { font-size: 0.9rem; border: 1px solid var(--line); background: var(--paper); border-radius: 6px; padding: 0.2rem 0.65rem; }
    .lead { color: var(--muted); margin: 0.2rem 0 1.2rem; max-width: 70ch; }
    .card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 1.1rem 1.3rem; margin: 1rem 0; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1.5rem; margin: 0; }
    dl.facts dt { color: var(--muted); }
    dl.facts dd { margin: 0; overflow-wrap: anywhere; }
    .table-scroll { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 10px; }
    table { border-collapse: collapse; width: 100%; font-size: 0.94rem; }
    th, td { text-align: left; padding: 0.5rem 0.8rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { background: #e8eef5; font-weight: 600; white-space: nowrap; }
    tbody tr:nth-child(even) { background: var(--zebra); }
    tbody tr:last-child td { border-bottom: 0; }
    table.results td { white-space: nowrap; max-width: 22rem; overflow: hidden; text-overflow: ellipsis; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; }
    .null { color: #9aa8b6; font-style: italic; }
    .tag { display: inline-block; background: #e3edf8; color: #1f4f80; border-radius: 999px; padding: 0.05rem 0.6rem; margin: 0.1rem 0.2rem 0.1rem 0; font-size: 0.85rem; }
    .tag.private { background: #fbe9d9; color: #8a4a12; }
    .tag.protected { background: #efe6fa; color: #5a2d8a; }
    ul.values { margin: 0.2rem 0 0; padding-left: 1.1rem; font-size: 0.9rem; }
    .domain-name { font-weight: 600; }
    .muted { color: var(--muted); }
    .empty { color: var(--muted); font-style: italic; }
    .drawing { margin: 1rem 0; }
    .drawing svg { display: block; width: 100%; max-width: 720px; height: auto; background: #f8fbfe; border: 1px solid var(--line); border-radius: 10px; }
    .drawing figcaption { color: var(--muted); font-size: 0.88rem; margin-top: 0.35rem; }
    svg .pt { fill: #2f8f46; fill-opacity: 0.8; stroke: #fff; stroke-width: 1; }
    svg .ln { fill: none; stroke: #0b5cad; stroke-width: 1.6; }
    svg .ar { fill: #0b5cad; fill-opacity: 0.18; fill-rule: evenodd; stroke: #0b5cad; stroke-width: 1.2; }
    form.query { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 0.9rem 1.2rem; }
    form.query .wide { grid-column: 1 / -1; }
    label { display: block; font-weight: 600; font-size: 0.9rem; margin-bottom: 0.25rem; }
    .hint { display: block; font-weight: 400; color: var(--muted); font-size: 0.82rem; }
    input[type=text], input[type=password], input[type=number], select {
      width: 100%; padding: 0.5rem 0.6rem; border: 1px solid #b9c6d3; border-radius: 6px; font: inherit; background: #fff; color: var(--ink);
    }
    input:focus, select:focus { outline: 2px solid #8cbcf0; outline-offset: 1px; border-color: var(--accent); }
    .actions { display: flex; gap: 0.8rem; align-items: center; flex-wrap: wrap; }
    button.primary { background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: 0.55rem 1.3rem; font: inherit; font-weight: 600; cursor: pointer; }
    button.primary:hover { background: #094a8b; }
    .pager { display: flex; gap: 1rem; align-items: center; justify-content: space-between; margin: 0.8rem 0; flex-wrap: wrap; }
    .pager .links { display: flex; gap: 1rem; }
    .notice { border-radius: 8px; padding: 0.8rem 1rem; margin: 1rem 0; }
    .notice.error { background: var(--warn-bg); color: var(--warn); border: 1px solid #f2c2b6; }
    .signin { max-width: 420px; }
    .signin + p { max-width: 60ch; }
    .signin .field { margin-bottom: 0.9rem; }
    footer.foot { max-width: 1120px; margin: 0 auto; padding: 1rem 1.5rem 2rem; color: var(--muted); font-size: 0.85rem; }
    """
}
