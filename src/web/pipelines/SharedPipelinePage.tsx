/** Shared pipeline (being built: issue 17). */
export function SharedPipelinePage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Shared pipeline</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
