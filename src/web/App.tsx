/** The app's frame: a header with the sections, the service's version and mode, and the theme switch; the routes below it. */
import { useQuery } from "@tanstack/react-query";
import { Navigate, NavLink, Route, Routes } from "react-router";
import { api, dataOf } from "./api.js";
import { PipelinesPage } from "./pages/PipelinesPage.js";
import { RunsPage } from "./pages/RunsPage.js";
import { NotFoundPage } from "./pages/NotFoundPage.js";
import { ThemeSwitch } from "./ThemeSwitch.js";

export function App() {
  const health = useQuery({ queryKey: ["health"], queryFn: async () => dataOf(await api.GET("/api/health")), refetchInterval: 30_000 });
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand" aria-label="strand">
          strand
        </span>
        <nav aria-label="Sections">
          <NavLink to="/pipelines">Pipelines</NavLink>
          <NavLink to="/runs">Runs</NavLink>
        </nav>
        <span className="service-state" role="status">
          {health.isError ? "service unreachable" : health.data ? `v${health.data.version} · ${health.data.mode}` : "connecting…"}
        </span>
        <ThemeSwitch />
      </header>
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route path="/" element={<Navigate to="/pipelines" replace />} />
          <Route path="/pipelines" element={<PipelinesPage />} />
          <Route path="/runs" element={<RunsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
    </>
  );
}
