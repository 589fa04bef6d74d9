/**
 * Interactive API documentation at `GET /api/docs`: Swagger UI reading `/api/openapi.json`, served from the
 * installed `swagger-ui-dist` package (never from a CDN: the service may have no internet, and its content
 * security policy allows scripts from itself only, so the page's start-up code is a file too, not inline).
 * Asset URLs carry Swagger UI's version, so browsers may keep them for good; links are relative, so the
 * page works under a base path.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const DIST: string = (require("swagger-ui-dist") as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
const VERSION: string = (require("swagger-ui-dist/package.json") as { version: string }).version;

/** The start-up script: Swagger UI on the service's own document, with deep links to operations. */
const INIT_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: new URL("openapi.json", window.location.href).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    displayOperationId: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

/** The files the page loads, by name: content type and where the text comes from. */
const ASSETS: Record<string, { type: string; text: () => string }> = {
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", text: () => readFileSync(join(DIST, "swagger-ui-bundle.js"), "utf8") },
  "swagger-ui.css": { type: "text/css; charset=utf-8", text: () => readFileSync(join(DIST, "swagger-ui.css"), "utf8") },
  "init.js": { type: "text/javascript; charset=utf-8", text: () => INIT_SCRIPT },
};

const loaded = new Map<string, string>();

/** Where the assets live, relative to the page. */
export const DOCS_ASSET_PREFIX = `docs/assets/${VERSION}/`;

/** The documentation page. */
export function docsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — API reference</title>
<link rel="stylesheet" href="${DOCS_ASSET_PREFIX}swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSET_PREFIX}init.js"></script>
</body>
</html>
`;
}

/** One asset of the page (read once per process), or undefined for a name or version the page does not use. */
export function docsAsset(version: string, name: string): { type: string; text: string } | undefined {
  const asset = ASSETS[name];
  if (!asset || version !== VERSION) return undefined;
  let text = loaded.get(name);
  if (text === undefined) {
    text = asset.text();
    loaded.set(name, text);
  }
  return { type: asset.type, text };
}
