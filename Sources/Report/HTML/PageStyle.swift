/// The stylesheet of the HTML reports (`lint --format html`, `inspect --format html`), inlined into each page so
/// that a page is one self-contained file that opens offline and asks nothing of any server.
///
/// The pages carry a Content-Security-Policy `<meta>` allowing inline style and `data:` images only: no script
/// runs in them, whatever a map's values hold. Severity filters are checkboxes and CSS (`:checked ~`), files
/// and rule explanations are `<details>` elements, so nothing needs JavaScript.
enum PageStyle {
    static let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    static let css = """
    :root { --fg: #1d2433; --muted: #5d6778; --line: #dde2ea; --bg: #f5f7fa; --card: #fff;
      --error: #b42318; --error-bg: #fef3f2; --warning: #b54708; --warning-bg: #fffaeb;
      --info: #175cd3; --info-bg: #eff8ff; --ok: #067647; --ok-bg: #ecfdf3; --accent: #0b5cad; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
      color: var(--fg); background: var(--bg); }
    header.top { background: #14213d; color: #fff; padding: 18px 32px; }
    header.top h1 { margin: 0; font-size: 22px; font-weight: 600; }
    header.top p { margin: 4px 0 0; color: #c7d0e0; font-size: 14px; }
    main, nav.filters { max-width: 1180px; margin: 0 auto; padding: 0 32px; }
    main { padding-bottom: 48px; }
    h2 { font-size: 18px; margin: 32px 0 12px; }
    h3 { font-size: 16px; margin: 0; }
    a { color: var(--accent); }
    code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
    .cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 20px; }
    .total { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px 18px; min-width: 150px; }
    .total b { display: block; font-size: 26px; line-height: 1.2; }
    .total span { color: var(--muted); font-size: 13px; }
    .total.error b { color: var(--error); } .total.warning b { color: var(--warning); } .total.info b { color: var(--info); }
    .total.ok b { color: var(--ok); }
    table.grid { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
    table.grid th, table.grid td { text-align: left; padding: 8px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
    table.grid th { background: #eef1f6; font-size: 13px; color: var(--muted); font-weight: 600; }
    table.grid tr:nth-child(even) td { background: #fafbfd; }
    details.file > table.grid { border: 0; border-top: 1px solid var(--line); border-radius: 0 0 10px 10px; }
    table.grid td.num { text-align: right; font-variant-numeric: tabular-nums; }
    .badge { display: inline-block; border-radius: 999px; padding: 1px 9px; font-size: 12px; font-weight: 600; white-space: nowrap; }
    .badge.error { color: var(--error); background: var(--error-bg); border: 1px solid #fecdca; }
    .badge.warning { color: var(--warning); background: var(--warning-bg); border: 1px solid #fedf89; }
    .badge.info { color: var(--info); background: var(--info-bg); border: 1px solid #b2ddff; }
    .badge.ok { color: var(--ok); background: var(--ok-bg); border: 1px solid #abefc6; }
    .badge.off { color: var(--muted); background: #f2f4f7; border: 1px solid var(--line); }
    details.file { background: var(--card); border: 1px solid var(--line); border-radius: 10px; margin: 10px 0; }
    details.file > summary { cursor: pointer; padding: 12px 16px; display: flex; gap: 12px; align-items: center; list-style: none; }
    details.file > summary::-webkit-details-marker { display: none; }
    details.file > summary::before { content: "▸"; color: var(--muted); width: 10px; }
    details.file[open] > summary::before { content: "▾"; }
    details.file > summary .path { font-weight: 600; word-break: break-all; flex: 1; }
    ol.diagnostics { list-style: none; margin: 0; padding: 0 16px 12px; }
    li.diagnostic { border-top: 1px solid var(--line); padding: 12px 0; }
    .diagnostic .headline { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
    .diagnostic .where { color: var(--muted); font-size: 13px; }
    .diagnostic .message { margin: 4px 0 8px; }
    .diagnostic .rule { font-size: 13px; }
    pre.snippet { background: #0f172a; color: #dbe4f3; border-radius: 8px; padding: 10px 0; margin: 6px 0; overflow-x: auto; }
    pre.snippet .ln { display: inline-block; width: 5.5em; padding-right: 1em; text-align: right; color: #6b7a93; user-select: none; }
    pre.snippet .line { display: block; padding-right: 12px; }
    pre.snippet .line.target { background: #1e2a44; box-shadow: inset 3px 0 0 #f59e0b; }
    pre.snippet mark { background: #f59e0b; color: #111; border-radius: 2px; }
    p.autofix { font-size: 14px; margin: 4px 0; }
    details.why { font-size: 14px; margin-top: 4px; }
    details.why summary { cursor: pointer; color: var(--accent); }
    details.why p { margin: 6px 0 0 16px; }
    .clean { color: var(--muted); font-size: 14px; }
    nav.filters { display: flex; gap: 10px; align-items: center; margin-top: 24px; flex-wrap: wrap; }
    nav.filters .label { color: var(--muted); font-size: 14px; }
    input.toggle { position: absolute; opacity: 0; pointer-events: none; }
    label.chip { cursor: pointer; border: 1px solid var(--line); border-radius: 999px; padding: 4px 12px; font-size: 14px;
      background: var(--card); user-select: none; }
    label.chip::before { content: "☐ "; }
    #show-error:checked ~ nav label[for=show-error]::before, #show-warning:checked ~ nav label[for=show-warning]::before,
    #show-info:checked ~ nav label[for=show-info]::before { content: "☑ "; }
    #show-error:not(:checked) ~ main .sev-error, #show-warning:not(:checked) ~ main .sev-warning,
    #show-info:not(:checked) ~ main .sev-info { display: none; }
    input.toggle:focus-visible ~ nav label { outline: none; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 18px 20px; margin: 14px 0; }
    .card header { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 10px; }
    .card header .meta { color: var(--muted); font-size: 13px; }
    .columns { display: grid; grid-template-columns: minmax(280px, 360px) 1fr; gap: 24px; }
    @media (max-width: 820px) { .columns { grid-template-columns: 1fr; } }
    .phone { align-self: start; border: 8px solid #1f2937; border-radius: 22px; background: #fff; overflow: hidden; }
    .phone .bar { background: #0b5cad; color: #fff; padding: 10px 14px; font-weight: 600; }
    .phone .bar small { display: block; font-weight: 400; color: #cfe0f5; }
    .phone .row { padding: 8px 14px; border-bottom: 1px solid var(--line); }
    .phone .row .lbl { font-size: 12px; color: var(--muted); }
    .phone .row .ctl { margin-top: 3px; border: 1px solid #c4ccd8; border-radius: 6px; padding: 5px 8px; font-size: 14px; color: #6b7280; }
    .phone .row .ctl.multi { min-height: 54px; }
    .phone .row .ctl.readonly { border-style: dashed; background: #f8fafc; }
    .phone .row .ctl.unsupported { border-color: #fda29b; background: var(--error-bg); color: var(--error); }
    .phone .row .choices { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
    .phone .row .choices span { font-size: 12px; border: 1px solid var(--line); border-radius: 6px; padding: 0 6px; background: #f8fafc; color: var(--fg); }
    .phone .section { padding: 8px 14px; background: #f3f6fa; font-size: 13px; font-weight: 600; color: var(--muted); }
    .phone .action { padding: 9px 14px; border-bottom: 1px solid var(--line); color: var(--accent); }
    .phone .action.disabled { color: #9aa3b2; }
    .phone .action.danger { color: var(--error); }
    .phone.form .row.nested, .phone.form .row.other.nested { padding-left: 26px; }
    .phone.form .row.hidden, .phone.form .section.hidden { opacity: 0.45; background: repeating-linear-gradient(135deg, #fff, #fff 6px, #f3f4f6 6px, #f3f4f6 12px); }
    .phone.form .ctl.calculated { color: var(--ok); font-weight: 600; }
    .phone.form .req { color: var(--error); }
    .phone.form .tag { display: inline-block; margin: 4px 4px 0 0; font-size: 11px; border-radius: 6px; padding: 0 6px; background: var(--info-bg); color: var(--info); }
    .facts dt { font-size: 13px; color: var(--muted); margin-top: 10px; }
    .facts dd { margin: 2px 0 0; }
    .facts ul { margin: 4px 0 0; padding-left: 20px; }
    .addbutton { display: inline-block; border-radius: 8px; padding: 6px 14px; font-weight: 600; }
    .addbutton.on { background: #0b5cad; color: #fff; }
    .addbutton.off { background: #e4e7ec; color: #667085; text-decoration: line-through; }
    svg.scales { background: var(--card); border: 1px solid var(--line); border-radius: 10px; width: 100%; height: auto; }
    svg.scales text { font: 12px system-ui, "DejaVu Sans", sans-serif; fill: #1d2433; }
    svg.scales text.axis { fill: #5d6778; font-size: 11px; }
    footer { max-width: 1180px; margin: 0 auto; padding: 0 32px 32px; color: var(--muted); font-size: 13px; }
    """
}
