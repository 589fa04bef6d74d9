/** A path the app has no page for. */
import { Link, useLocation } from "react-router";

export function NotFoundPage() {
  const location = useLocation();
  return (
    <section aria-labelledby="missing-title">
      <h1 id="missing-title">Nothing here</h1>
      <p>
        The app has no page at <code>{location.pathname}</code>. Go to the <Link to="/pipelines">pipelines</Link> or the <Link to="/runs">runs</Link>.
      </p>
    </section>
  );
}
