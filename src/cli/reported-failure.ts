/**
 * A command's failure that is not the engine's — an account the service's rules refuse, say — reported
 * like an engine error (the finding on stderr or in the JSON envelope, exit 1) with its own code, so the
 * engine's list of codes stays the engine's.
 */
import type { Finding } from "../engine/findings.js";

/** A failure carrying the finding to report. */
export class ReportedFailure extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
    this.name = "ReportedFailure";
  }
}
