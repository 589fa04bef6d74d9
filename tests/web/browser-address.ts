/**
 * The page address the browser app's api modules read when they load (src/web/api/service-address.ts reads
 * the document's base-path meta tag and the page's origin): an app served at http://app.test/strand/.
 * Imported first by the tests of modules that load the typed client, so they run in Node as they are.
 */
import { vi } from "vitest";

/** The app's origin in these tests. */
export const APP_ORIGIN = "http://app.test";
/** The base path the service injected. */
export const APP_BASE_PATH = "/strand/";

// Only what is read: the meta tag; and an empty root element's style, which libraries probe for features.
vi.stubGlobal("document", { querySelector: (selector: string) => (selector === 'meta[name="strand-base-path"]' ? { content: APP_BASE_PATH } : null), documentElement: { style: {} } });
vi.stubGlobal("location", { origin: APP_ORIGIN });
