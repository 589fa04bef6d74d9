// The browser app (src/web) built by Vite into dist/web, which the service serves: content-hashed assets under
// assets/, relative URLs so the index page's injected <base href> (SERVICE_BASE_PATH) places them, files of
// public/ (favicon, robots.txt, the web manifest) copied as they are. `npm run dev` serves it with hot reload and proxies /api to a running service.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("./src/web"),
  publicDir: here("./public"),
  base: "./",
  plugins: [react()],
  build: {
    outDir: here("./dist/web"),
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: true,
    // The graph's layout engine (elkjs, 1.4 MB) is one file by nature, loaded only in a worker when a graph is
    // first drawn; warn about anything bigger than it. And no "plugins were slow" report on a busy machine:
    // `npm start` builds every time, and a first-time user should not read build diagnostics.
    chunkSizeWarningLimit: 1_600,
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { port: 5173, proxy: { "/api": { target: process.env.STRAND_API ?? "http://127.0.0.1:8080", changeOrigin: false } } },
});
