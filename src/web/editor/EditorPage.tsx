/** Editor (being built: issue 17). */
export function EditorPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Editor</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
