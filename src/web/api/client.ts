/**
 * The app's access to the service: one typed client (generated from the OpenAPI document) at the service's
 * base address, so the session cookie travels with every request. Failures become `ApiError` with the
 * service's code and message. Only the modules of src/web/api use it: pages and components ask through them.
 */
import { createServiceClient, type ServiceErrorBody } from "../../client/service-client.js";
import { ApiError } from "./errors.js";
import { baseUrl } from "./service-address.js";

/** The typed client of the service's API. */
export const api = createServiceClient({ baseUrl });

/** The data of an answer, or an ApiError (for TanStack Query's queryFn). */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined && answer.error === undefined) return answer.data;
  throw new ApiError(answer.response.status, (answer.error ?? {}) as Partial<ServiceErrorBody>);
}
