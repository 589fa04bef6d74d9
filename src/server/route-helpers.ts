/**
 * Shorthands for `@hono/zod-openapi` route definitions: a JSON response, an error-body response and a
 * required JSON request body, so route files read as a list of endpoints.
 */
import { ErrorBodySchema } from "./domains/observability/schemas.js";

/** A JSON response with this schema. */
export const jsonResponse = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

/** A failure answered with the error body. */
export const failureResponse = (description: string) => jsonResponse(ErrorBodySchema, description);

/** A required JSON request body with this schema. */
export const jsonBody = <T>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
