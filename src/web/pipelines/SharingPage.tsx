/** Sharing (being built: issue 17). */
export function SharingPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Sharing</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
