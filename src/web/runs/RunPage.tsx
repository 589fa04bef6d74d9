/** Run (being built: issue 17). */
export function RunPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Run</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
