/**
 * The browser app's entry: data through TanStack Query over the typed client, routes under the service's base
 * path. A data router (not <BrowserRouter>) so a page can block navigation (the editor's unsaved-changes guard).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { ApiError } from "./api/errors.js";
import { basePath } from "./api/service-address.js";
import { App } from "./App.js";
import "./styles.css";

/**
 * A refused request is not asked again (a 404 shows at once), except over the rate limit (100 requests a
 * minute per address by default): then after the wait the 429 names, three times at most. A failure of the
 * service or the network is asked once more.
 */
const retry = (failures: number, error: Error) => (error instanceof ApiError && error.status < 500 ? error.status === 429 && failures < 3 : failures < 1);
const retryDelay = (failures: number, error: Error) => Math.min(60_000, ((error instanceof ApiError ? error.retryAfterSeconds : undefined) ?? 2 ** failures) * 1000);

const queries = new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry, retryDelay, refetchOnWindowFocus: true } } });
const router = createBrowserRouter([{ path: "*", element: <App /> }], { basename: basePath.replace(/\/$/, "") || "/" });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
