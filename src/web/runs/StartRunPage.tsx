/** Start a run (being built: issue 17). */
export function StartRunPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Start a run</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
