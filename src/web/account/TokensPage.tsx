/** Access tokens (being built: issue 17). */
export function TokensPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Access tokens</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
