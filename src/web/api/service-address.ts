/**
 * Where the service is, as the page the app was opened on says: the base path the service injected (so a
 * service mounted under SERVICE_BASE_PATH works unchanged) and the address it makes on this origin.
 */

/** The router's base path (`/` or `/prefix/`), as the service injected it (`/` under `npm run dev`). */
export const basePath = document.querySelector<HTMLMetaElement>('meta[name="strand-base-path"]')?.content ?? "/";

/** The service's base address: this origin and the base path, whatever page the app was opened on. */
export const baseUrl = new URL(basePath, window.location.origin).href;
