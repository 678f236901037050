import Report
import Rules

extension LintCommand {
    /// `--write-baseline FILE` records `reports` (and keeps them); `--baseline FILE` answers them without the
    /// findings the baseline holds. Either says on standard error what it did.
    func applyBaseline(to reports: [FileReport]) throws -> [FileReport] {
        if let writeBaseline {
            let recorded = Baseline(recording: reports, baselinePath: writeBaseline)
            try emit(recorded.text, to: writeBaseline)
            let findings = recorded.entries.reduce(0) { $0 + $1.count }, entries = recorded.entries.count
            Console.error("wrote \(findings) finding\(findings == 1 ? "" : "s") (\(entries) entr\(entries == 1 ? "y" : "ies")) to the baseline \(writeBaseline)")
            return reports
        }
        guard let baseline else { return reports }
        let outcome = try Baseline.load(path: baseline).filter(reports, baselinePath: baseline)
        Console.error("baseline \(baseline): \(outcome.suppressed) known finding\(outcome.suppressed == 1 ? "" : "s") not reported; "
            + "\(outcome.stale) baseline entr\(outcome.stale == 1 ? "y no longer occurs" : "ies no longer occur")"
            + (outcome.stale > 0 ? " (fixed: record the baseline again with --write-baseline)" : ""))
        return outcome.reports
    }
}
