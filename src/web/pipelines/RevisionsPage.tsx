/** Revisions (being built: issue 17). */
export function RevisionsPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Revisions</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
