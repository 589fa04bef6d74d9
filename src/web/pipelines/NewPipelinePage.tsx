/** New pipeline (being built: issue 17). */
export function NewPipelinePage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">New pipeline</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
