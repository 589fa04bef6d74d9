/** Import a pipeline (being built: issue 17). */
export function ImportPipelinePage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Import a pipeline</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
