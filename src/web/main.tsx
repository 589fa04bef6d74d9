/**
 * The browser app's entry: data through TanStack Query over the typed client, routes under the service's base
 * path. A data router (not <BrowserRouter>) so a page can block navigation (the editor's unsaved-changes guard).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { basePath } from "./api.js";
import { App } from "./App.js";
import "./styles.css";

const queries = new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: true } } });
const router = createBrowserRouter([{ path: "*", element: <App /> }], { basename: basePath.replace(/\/$/, "") || "/" });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
