/**
 * The one table of service error codes: each code has one HTTP status, a ServiceError takes its status from
 * it, the specification's table and domain codes are in it with the specification's statuses, and the OpenAPI
 * document lists the codes as the error body's enum.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FATAL_CODES } from "../../src/engine/findings.js";
import { createApp } from "../../src/server/app.js";
import { SERVICE_ERROR_CODES, SERVICE_ERROR_STATUS, isServiceErrorCode } from "../../src/server/error-codes.js";
import { ServiceError } from "../../src/server/errors.js";
import { openTempStore } from "../support/temp-store.js";

const SPEC = join(process.cwd(), "..", "shared", "spec", "service-spec.md");

/** The rows of the specification's "Errors" table and its list of domain codes. */
function specificationCodes(text: string): { table: Map<string, string>; domain: string[] } {
  const section = text.slice(text.indexOf("## Errors"), text.indexOf("## Limits"));
  const table = new Map<string, string>();
  for (const [, code, status] of section.matchAll(/^\| ([A-Z_]+) \| ([^|]+) \|/gm)) table.set(code!, status!.trim());
  const domain = /Domain-specific codes, all status 400: ([A-Z_, ]+)\./.exec(section)?.[1]?.split(", ") ?? [];
  return { table, domain };
}

describe("the service's error codes", () => {
  it("give a ServiceError its status from the table", () => {
    for (const code of SERVICE_ERROR_CODES) expect(new ServiceError(code, "x").status, code).toBe(SERVICE_ERROR_STATUS[code]);
    expect(isServiceErrorCode("NOT_FOUND")).toBe(true);
    expect(isServiceErrorCode("toString")).toBe(false);
  });

  it.runIf(existsSync(SPEC))("hold every code of the specification with its status", () => {
    const { table, domain } = specificationCodes(readFileSync(SPEC, "utf8"));
    expect(table.size).toBeGreaterThan(10);
    expect(domain.length).toBeGreaterThan(10);
    for (const [code, status] of table) {
      expect(isServiceErrorCode(code), code).toBe(true);
      // "not shown" leaves the status to us.
      if (/^\d{3}$/.test(status)) expect(SERVICE_ERROR_STATUS[code as keyof typeof SERVICE_ERROR_STATUS], code).toBe(Number(status));
    }
    for (const code of domain) expect(SERVICE_ERROR_STATUS[code as keyof typeof SERVICE_ERROR_STATUS], code).toBe(400);
  });

  it("are the error body's enum in the OpenAPI document, with the engine's codes and a pattern for E codes", async () => {
    const store = await openTempStore();
    try {
      const { app } = createApp({ version: "1", store: store.store });
      const document = (await (await app.request("/api/openapi.json")).json()) as { components: { schemas: Record<string, { anyOf?: { enum?: string[]; pattern?: string }[] }> } };
      const [named, pattern] = document.components.schemas.ErrorCode!.anyOf!;
      expect(new Set(named!.enum)).toEqual(new Set([...SERVICE_ERROR_CODES, ...FATAL_CODES]));
      expect(pattern!.pattern).toBe("^E\\d{3}$");
    } finally {
      await store.dispose();
    }
  });
});
