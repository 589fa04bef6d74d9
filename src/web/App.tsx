/**
 * The app's frame: a header with the sections, the service's version and mode, the user menu and the theme
 * switch; the routes below it. The editor and the run page (CodeMirror, React Flow, the layout engine) load
 * on first use so the lists open fast.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Navigate, NavLink, Route, Routes } from "react-router";
import { AuthGate } from "./account/AuthGate.js";
import { AuditPage } from "./account/AuditPage.js";
import { SessionsPage } from "./account/SessionsPage.js";
import { SignInPage } from "./account/SignInPage.js";
import { TokensPage } from "./account/TokensPage.js";
import { UserMenu } from "./account/UserMenu.js";
import { UsersPage } from "./account/UsersPage.js";
import { healthQuery } from "./api/health.js";
import { AiSettingsPage } from "./ai/AiSettingsPage.js";
import { ClustersPage } from "./clusters/ClustersPage.js";
import { NotFoundPage } from "./components/NotFoundPage.js";
import { ImportPipelinePage } from "./pipelines/ImportPipelinePage.js";
import { NewPipelinePage } from "./pipelines/NewPipelinePage.js";
import { PipelinesPage } from "./pipelines/PipelinesPage.js";
import { RevisionsPage } from "./pipelines/RevisionsPage.js";
import { SharedPipelinePage } from "./pipelines/SharedPipelinePage.js";
import { SharingPage } from "./pipelines/SharingPage.js";
import { RunsPage } from "./runs/RunsPage.js";
import { StartRunPage } from "./runs/StartRunPage.js";
import { ThemeSwitch } from "./ThemeSwitch.js";

const EditorPage = lazy(async () => ({ default: (await import("./editor/EditorPage.js")).EditorPage }));
const RunPage = lazy(async () => ({ default: (await import("./runs/RunPage.js")).RunPage }));

export function App() {
  const health = useQuery({ ...healthQuery(), refetchInterval: 30_000 });
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
          <NavLink to="/clusters">Clusters</NavLink>
        </nav>
        <span className="service-state" role="status">
          {health.isError ? "service unreachable" : health.data ? `v${health.data.version} · ${health.data.mode}` : "connecting…"}
        </span>
        <UserMenu />
        <ThemeSwitch />
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Routes>
            <Route path="/sign-in" element={<SignInPage />} />
            {/* A share link is public: its reader may have no account here. */}
            <Route path="/share/:token" element={<SharedPipelinePage />} />
            <Route
              path="*"
              element={
                <AuthGate>
                  <Routes>
                    <Route path="/" element={<Navigate to="/pipelines" replace />} />
                    <Route path="/pipelines" element={<PipelinesPage />} />
                    <Route path="/pipelines/new" element={<NewPipelinePage />} />
                    <Route path="/pipelines/import" element={<ImportPipelinePage />} />
                    <Route path="/pipelines/:id" element={<EditorPage />} />
                    <Route path="/pipelines/:id/revisions" element={<RevisionsPage />} />
                    <Route path="/pipelines/:id/sharing" element={<SharingPage />} />
                    <Route path="/pipelines/:id/run" element={<StartRunPage />} />
                    <Route path="/editor" element={<EditorPage />} />
                    <Route path="/runs" element={<RunsPage />} />
                    <Route path="/runs/:id" element={<RunPage />} />
                    <Route path="/clusters" element={<ClustersPage />} />
                    <Route path="/account/sessions" element={<SessionsPage />} />
                    <Route path="/account/tokens" element={<TokensPage />} />
                    <Route path="/settings/ai" element={<AiSettingsPage />} />
                    <Route path="/admin/users" element={<UsersPage />} />
                    <Route path="/admin/audit" element={<AuditPage />} />
                    <Route path="*" element={<NotFoundPage />} />
                  </Routes>
                </AuthGate>
              }
            />
          </Routes>
        </Suspense>
      </main>
    </>
  );
}
