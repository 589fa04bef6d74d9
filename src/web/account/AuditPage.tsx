/** Audit log (being built: issue 17). */
export function AuditPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Audit log</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
