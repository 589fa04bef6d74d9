/** Sign in (being built: issue 17). */
export function SignInPage() {
  return (
    <section aria-labelledby="stub-title">
      <h1 id="stub-title">Sign in</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
