/**
 * The browser app's failed requests (src/web/api/errors.ts): the service's error body carried with its
 * status, the wait a 429 names (in its detail or, for a throttled sign-in, its message), which 401 means
 * the session is over (not a wrong password), and a refused streamed answer read into the same error.
 */
import { describe, expect, it } from "vitest";
import { ApiError, apiErrorOf, isSessionEnded } from "../../src/web/api/errors.js";

describe("a failed request", () => {
  it("carries the service's message, or says the status when there is none", () => {
    expect(new ApiError(404, { code: "NOT_FOUND", message: "no pipeline p-1" }).message).toBe("no pipeline p-1");
    expect(new ApiError(502, {}).message).toBe("the service answered 502");
  });

  it("reads the wait a 429 names, in its detail or in a throttled sign-in's message, and none otherwise", () => {
    expect(new ApiError(429, { message: "too many requests", detail: "retry in 17s" }).retryAfterSeconds).toBe(17);
    expect(new ApiError(429, { message: "Too many failed sign-ins: try again in 42 s" }).retryAfterSeconds).toBe(42);
    expect(new ApiError(429, { message: "slow down" }).retryAfterSeconds).toBeUndefined();
    expect(new ApiError(503, { detail: "retry in 17s" }).retryAfterSeconds).toBeUndefined();
  });

  it("means the session is over on a 401 other than a wrong password", () => {
    expect(isSessionEnded(new ApiError(401, { code: "AUTH_REQUIRED" }))).toBe(true);
    expect(isSessionEnded(new ApiError(401, { code: "TOKEN_EXPIRED" }))).toBe(true);
    expect(isSessionEnded(new ApiError(401, { code: "AUTH_FAILED" }))).toBe(false);
    expect(isSessionEnded(new ApiError(403, { code: "FORBIDDEN" }))).toBe(false);
    expect(isSessionEnded(new Error("offline"))).toBe(false);
  });

  it("reads a refused streamed answer's error body, or its status when the body is not JSON", async () => {
    const refused = await apiErrorOf(new Response(JSON.stringify({ code: "AI_NOT_CONFIGURED", message: "no provider", suggestion: "set one" }), { status: 409 }));
    expect(refused).toMatchObject({ status: 409, body: { code: "AI_NOT_CONFIGURED", suggestion: "set one" }, message: "no provider" });
    const opaque = await apiErrorOf(new Response("<html>bad gateway</html>", { status: 502 }));
    expect(opaque).toMatchObject({ status: 502, message: "the service answered 502" });
  });
});
