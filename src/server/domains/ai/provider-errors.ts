/**
 * The error an AI endpoint answers when its model call failed with every provider of the chain: 400 with
 * the endpoint's own code, naming each provider's failure (or saying the caller cancelled).
 */
import { ServiceError } from "../../errors.js";
import { ChainFailure } from "./harness.js";

/** The endpoint codes of failed generations. */
export type GenerationErrorCode = "AI_EXPLAIN_ERROR" | "AI_INTERPRET_ERROR" | "AI_OPTIMIZE_ERROR";

/** A ServiceError for a failed model call; anything that is not a ChainFailure is passed through unchanged. */
export function generationError(error: unknown, code: GenerationErrorCode, what: string): unknown {
  if (!(error instanceof ChainFailure)) return error;
  if (error.cancelled) return new ServiceError(code, "the request was cancelled");
  return new ServiceError(code, `${what} failed with every provider: ${error.message}`, { suggestion: "check the provider settings with POST /api/ai/test" });
}
