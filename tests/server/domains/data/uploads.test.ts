/**
 * Uploads into the caller's files folder: a raw body over the service's 10 MiB body cap is streamed to disk
 * and accepted; one over the upload limit is refused with 413 and nothing of it left (partial file gone);
 * multipart parts; names and folders checked; no overwriting unless asked; the listing; viewers refused.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { startTeamService } from "../../../support/team-service.js";

const MiB = 1024 * 1024;

/** A body of `size` bytes sent in 1 MiB pieces without a Content-Length (so the limit is met while streaming). */
function streamedBody(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const piece = Math.min(MiB, size - sent);
      controller.enqueue(new Uint8Array(piece).fill(65));
      sent += piece;
    },
  });
}

describe("uploads in personal mode", () => {
  let service: TestService;
  let uploads: string;

  beforeAll(async () => {
    service = await startTestService({ uploadLimitBytes: 12 * MiB });
    uploads = join(service.dataDir!, "users", "local", "files", "uploads");
  });
  afterAll(async () => {
    await service.close();
    rmSync(join(service.dataDir!, "users", "local", "files"), { recursive: true, force: true });
  });

  it("streams a raw body larger than the 10 MiB body cap to disk, with its size and SHA-256", async () => {
    const content = Buffer.alloc(11 * MiB, 7);
    const response = await fetch(`${service.url}/api/files?name=big.fastq.gz`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: content });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ path: "uploads/big.fastq.gz", size: 11 * MiB, sha256: createHash("sha256").update(content).digest("hex") });
    expect(readFileSync(join(uploads, "big.fastq.gz")).equals(content)).toBe(true);
  });

  it("refuses a file over the upload limit with 413 and removes the partial file", async () => {
    const response = await fetch(`${service.url}/api/files?name=huge.fastq`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: streamedBody(14 * MiB), duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(existsSync(join(uploads, "huge.fastq"))).toBe(false);
    expect(readdirSync(uploads).filter((name) => name.startsWith("."))).toEqual([]);
    // A declared length over the limit is refused before anything is written.
    const declared = await fetch(`${service.url}/api/files?name=declared.fastq`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: Buffer.alloc(14 * MiB) }).catch(() => undefined);
    if (declared) expect(declared.status).toBe(413);
    expect(existsSync(join(uploads, "declared.fastq"))).toBe(false);
  });

  it("takes multipart file parts into a given folder, streamed part by part", async () => {
    const form = new FormData();
    form.append("note", "a text field is skipped");
    form.append("file", new Blob(["sample,fastq_1\nA,a.fq\n"]), "sheet.csv");
    form.append("file", new Blob([Buffer.alloc(3 * MiB, 1)]), "reads_R1.fq");
    const response = await fetch(`${service.url}/api/files?path=project/one`, { method: "POST", body: form });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { files: { path: string; size: number }[] };
    expect(body.files.map((file) => [file.path, file.size])).toEqual([
      ["project/one/sheet.csv", 22],
      ["project/one/reads_R1.fq", 3 * MiB],
    ]);
    const listing = (await (await fetch(`${service.url}/api/files?path=project/one`)).json()) as { entries: { name: string }[] };
    expect(listing.entries.map((entry) => entry.name)).toEqual(["reads_R1.fq", "sheet.csv"]);
    // What was uploaded is read by its relative path.
    const analysis = await fetch(`${service.url}/api/data/analyze`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paths: ["project/one"] }) });
    expect(((await analysis.json()) as { files: { path: string }[] }).files.map((file) => file.path)).toEqual(["project/one/reads_R1.fq", "project/one/sheet.csv"]);
  });

  it("does not overwrite unless asked", async () => {
    const send = (query: string, text: string) => fetch(`${service.url}/api/files?name=same.txt${query}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: text });
    expect((await send("", "first")).status).toBe(201);
    const again = await send("", "second");
    expect(again.status).toBe(409);
    expect(readFileSync(join(uploads, "same.txt"), "utf8")).toBe("first");
    expect((await send("&overwrite=true", "second")).status).toBe(201);
    expect(readFileSync(join(uploads, "same.txt"), "utf8")).toBe("second");
    expect(readdirSync(uploads).filter((name) => name.startsWith("."))).toEqual([]);
  });

  it("refuses bad names and folders", async () => {
    const raw = (query: string) => fetch(`${service.url}/api/files?${query}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: "x" });
    for (const [query, code] of [
      ["name=..", "INVALID_NAME"],
      ["name=.hidden", "INVALID_NAME"],
      [`name=${encodeURIComponent("a/b.txt")}`, "INVALID_NAME"],
      [`name=${encodeURIComponent("bad\u0001name")}`, "INVALID_NAME"],
      ["", "INVALID_NAME"],
      [`name=ok.txt&path=${encodeURIComponent("../escape")}`, "INVALID_PATH"],
      [`name=ok.txt&path=${encodeURIComponent("/etc")}`, "INVALID_PATH"],
      [`name=ok.txt&path=${encodeURIComponent("a/.git")}`, "INVALID_PATH"],
    ] as const) {
      const response = await raw(query);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { code: string }).code, query).toBe(code);
    }
    const form = new FormData();
    form.append("file", new Blob(["x"]), ".bashrc");
    const multipart = await fetch(`${service.url}/api/files`, { method: "POST", body: form });
    expect(multipart.status).toBe(400);
    expect(existsSync(join(uploads, "ok.txt"))).toBe(false);
  });

  it("refuses names with bidirectional controls and other invisible format characters, naming the character and where it is", async () => {
    const raw = (name: string) => fetch(`${service.url}/api/files?name=${encodeURIComponent(name)}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: "x" });
    for (const [name, code, position] of [
      ["invoice\u202Etxt.exe", "U+202E", 8], // right-to-left override: shows as invoiceexe.txt
      ["\u202Aleft.txt", "U+202A", 1],
      ["a\u2066b.txt", "U+2066", 2],
      ["a\u2069b.txt", "U+2069", 2],
      ["mark\u200F.txt", "U+200F", 5],
      ["mark\u200E.txt", "U+200E", 5],
      ["arabic\u061C.txt", "U+061C", 7],
      ["zero\u200Bwidth.txt", "U+200B", 5],
      ["soft\u00ADhyphen.txt", "U+00AD", 5],
      ["bom\uFEFF.txt", "U+FEFF", 4],
      ["line\u2028break.txt", "U+2028", 5],
      ["\u{1F600}\u202Egrin.txt", "U+202E", 2], // positions count characters, not UTF-16 units
    ] as const) {
      const response = await raw(name);
      expect(response.status, code).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code, code).toBe("INVALID_NAME");
      expect(body.message, code).toContain(`${code}`);
      expect(body.message, code).toContain(`character ${position}`);
      expect(body.message, code).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    }
    const form = new FormData();
    form.append("file", new Blob(["x"]), "photo\u202Egnp.js");
    const multipart = await fetch(`${service.url}/api/files`, { method: "POST", body: form });
    expect(multipart.status).toBe(400);
    const refused = (await multipart.json()) as { code: string; message: string };
    expect(refused).toMatchObject({ code: "INVALID_NAME", message: expect.stringContaining("U+202E") });
    expect(refused.message).not.toContain("\u202E");
    expect(existsSync(join(uploads, "photo\u202Egnp.js"))).toBe(false);
    // Folders too.
    const folder = await fetch(`${service.url}/api/files?name=ok.txt&path=${encodeURIComponent("runs/\u2067x")}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: "x" });
    const folderBody = (await folder.json()) as { code: string; message: string };
    expect([folder.status, folderBody.code]).toEqual([400, "INVALID_PATH"]);
    expect(folderBody.message).toMatch(/<U\+2067>.*U\+2067, a bidirectional text control, at character 1/);
    // Letters of any script, accents and emoji are names like any other.
    const accepted = await raw("Überweisung-é-данные-\u{1F600}.txt");
    expect(accepted.status).toBe(201);
  });
});

describe("uploads in team mode", () => {
  it("a viewer cannot upload; each user's files are their own", async () => {
    const team = await startTeamService();
    try {
      const send = (token: string) => fetch(`${team.url}/api/files?name=mine.txt`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" }, body: "mine" });
      expect((await send(team.tokens.viewer)).status).toBe(403);
      expect((await send(team.tokens.user)).status).toBe(201);
      const others = await team.call("other", "GET", "/api/files?path=uploads");
      expect(others.status).toBe(404);
      const own = await team.call("user", "GET", "/api/files?path=uploads");
      expect(own.body.entries).toMatchObject([{ name: "mine.txt", size: 4 }]);
    } finally {
      await team.close();
    }
  });
});
