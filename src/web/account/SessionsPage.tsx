/** Sessions (being built: issue 17). */
export function SessionsPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Sessions</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
