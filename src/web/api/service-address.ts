/**
 * Where the service is, as the page the app was opened on says: the base path the service injected (so a
 * service mounted under SERVICE_BASE_PATH works unchanged) and the address it makes on this origin.
 */

/** What this module reads of the page (typed here, so it compiles for the unit tests' Node program too). */
interface Page {
  document: { querySelector(selector: string): { content?: string } | null };
  location: { origin: string };
}
const page = globalThis as unknown as Page;

/** The router's base path (`/` or `/prefix/`), as the service injected it (`/` under `npm run dev`). */
export const basePath = page.document.querySelector('meta[name="strand-base-path"]')?.content ?? "/";

/** The service's base address: this origin and the base path, whatever page the app was opened on. */
export const baseUrl = new URL(basePath, page.location.origin).href;
