/** Users (being built: issue 17). */
export function UsersPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Users</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
