/**
 * A run's files for the browser, `GET /api/runs/{id}/files`, in team mode: folder listings, files streamed
 * with ranges, ETags and types, the safety headers that keep a result from running script on the app's
 * origin, folders as zips, confinement to the workspace (absolute paths, `..`, links and `.strand` answer
 * 404 as an absent file does), and another user's run answering 404.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../../../support/strand-cli.js";
import { removeTempDirs, tempDir } from "../../../support/temp-workspace.js";
import { startTeamService, TRIVIAL_PIPELINE, type TeamService } from "../../../support/team-service.js";

assertBuilt();

let team: TeamService;
let runId: string;
let workspace: string;
let outside: string;

const TEXT = Array.from({ length: 400 }, (_, index) => `line ${index + 1}: ACGTACGTACGT`).join("\n") + "\n";
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 9]);

beforeAll(async () => {
  team = await startTeamService();
  const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: TRIVIAL_PIPELINE } });
  expect(created.status).toBe(201);
  runId = created.body.id as string;
  await team.service.supervisor.whenFinished(runId);
  workspace = (await team.service.store.getRun(runId)).workspace!;
  // What jobs leave: text, markup, images, binaries, nested and empty folders — and links out of the workspace.
  outside = tempDir();
  writeFileSync(join(outside, "secret.txt"), "not yours\n");
  mkdirSync(join(workspace, "results", "plots"), { recursive: true });
  mkdirSync(join(workspace, "results", "empty"), { recursive: true });
  writeFileSync(join(workspace, "results", "table.tsv"), TEXT);
  writeFileSync(join(workspace, "results", "page.html"), "<html><script>alert(document.cookie)</script></html>\n");
  writeFileSync(join(workspace, "results", "plots", "plot.svg"), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>\n');
  writeFileSync(join(workspace, "results", "plots", "plot.png"), PNG);
  writeFileSync(join(workspace, "results", "data.bin"), BINARY);
  writeFileSync(join(workspace, "results", "NOTES"), "plain notes, no extension\n");
  writeFileSync(join(workspace, "results", "reads.fastq.gz"), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
  symlinkSync(join(outside, "secret.txt"), join(workspace, "results", "secret-link.txt"));
  symlinkSync(outside, join(workspace, "results", "outside-link"));
  symlinkSync(outside, join(workspace, "linked-folder"));
}, 60_000);

afterAll(async () => {
  await team?.close();
  removeTempDirs();
});

/** A request for one of the run's files as `who`. */
async function file(query: string, options: { who?: "user" | "other" | "admin"; headers?: Record<string, string>; method?: string } = {}): Promise<Response> {
  const token = team.tokens[options.who ?? "user"];
  return fetch(`${team.url}/api/runs/${runId}/files${query}`, { method: options.method ?? "GET", headers: { authorization: `Bearer ${token}`, ...options.headers } });
}

describe("folders", () => {
  it("lists the top of the workspace without the engine's .strand folder or links: folders first, then files, by name", async () => {
    const answer = await file("");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const listing = (await answer.json()) as { path: string; entries: { name: string; path: string; type: string; size_bytes: number; modified_at: string }[]; truncated: boolean };
    expect(listing.path).toBe("");
    expect(listing.truncated).toBe(false);
    expect(listing.entries.map((entry) => [entry.name, entry.type])).toEqual([
      ["results", "folder"],
      ["hi.txt", "file"],
      ["workflow.oxoflow", "file"],
    ]);
    expect(listing.entries.find((entry) => entry.name === "hi.txt")).toMatchObject({ path: "hi.txt", size_bytes: 3, modified_at: expect.any(String) });
  });

  it("lists a sub-folder with paths relative to the workspace", async () => {
    const listing = (await (await file("?path=results")).json()) as { path: string; entries: { name: string; path: string; type: string }[] };
    expect(listing.path).toBe("results");
    expect(listing.entries.map((entry) => entry.path)).toEqual([
      "results/empty",
      "results/plots",
      "results/NOTES",
      "results/data.bin",
      "results/page.html",
      "results/reads.fastq.gz",
      "results/table.tsv",
    ]);
  });

  it("streams a folder as a zip of its files and empty folders (links skipped), which unzips to the same bytes", async () => {
    const answer = await file("?path=results&format=zip");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/zip");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="results\.zip"/);
    expect(answer.headers.get("content-encoding")).toBeNull();
    const entries = unzipSync(new Uint8Array(await answer.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(["NOTES", "data.bin", "empty/", "page.html", "plots/plot.png", "plots/plot.svg", "reads.fastq.gz", "table.tsv"]);
    expect(Buffer.from(entries["table.tsv"]!).toString()).toBe(TEXT);
    expect(Buffer.from(entries["data.bin"]!)).toEqual(BINARY);
    expect(Buffer.from(entries["plots/plot.png"]!)).toEqual(PNG);

    const whole = unzipSync(new Uint8Array(await (await file("?format=zip")).arrayBuffer()));
    expect(Object.keys(whole).some((name) => name.startsWith(".strand"))).toBe(false);
    expect(Object.keys(whole).some((name) => name.includes("link") || name.includes("secret"))).toBe(false);
    expect(Buffer.from(whole["hi.txt"]!).toString()).toBe("hi\n");
  });
});

describe("files", () => {
  it("streams a text file inline with its length, type, ETag and the safety headers; HEAD and If-None-Match too", async () => {
    const answer = await file("?path=results/table.tsv", { headers: { "accept-encoding": "br, gzip" } });
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(["content-type", "content-length", "accept-ranges", "x-content-type-options", "content-encoding"].map((name) => [name, answer.headers.get(name)]))).toEqual({
      "content-type": "text/plain; charset=utf-8",
      "content-length": String(Buffer.byteLength(TEXT)),
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      "content-encoding": null,
    });
    expect(answer.headers.get("content-disposition")).toMatch(/^inline; filename="table\.tsv"/);
    expect(answer.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(await answer.text()).toBe(TEXT);
    const etag = answer.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect((await file("?path=results/table.tsv", { headers: { "if-none-match": etag } })).status).toBe(304);
    const head = await file("?path=results/table.tsv", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(TEXT)));
    expect(await head.text()).toBe("");
    const download = await file("?path=results/table.tsv&download=1");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="table\.tsv"/);
    await download.body?.cancel();
  });

  it("answers ranges: the first bytes, a suffix, an open end, and 416 outside the file", async () => {
    const first = await file("?path=results/table.tsv", { headers: { range: "bytes=0-9" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-9/${TEXT.length}`);
    expect(first.headers.get("content-length")).toBe("10");
    expect(await first.text()).toBe(TEXT.slice(0, 10));
    const suffix = await file("?path=results/table.tsv", { headers: { range: "bytes=-14" } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes ${TEXT.length - 14}-${TEXT.length - 1}/${TEXT.length}`);
    expect(await suffix.text()).toBe(TEXT.slice(-14));
    const open = await file("?path=results/table.tsv", { headers: { range: `bytes=${TEXT.length - 5}-` } });
    expect(await open.text()).toBe(TEXT.slice(-5));
    const outsideRange = await file("?path=results/table.tsv", { headers: { range: `bytes=${TEXT.length}-` } });
    expect(outsideRange.status).toBe(416);
    expect(outsideRange.headers.get("content-range")).toBe(`bytes */${TEXT.length}`);
    expect(((await outsideRange.json()) as { code: string }).code).toBe("RANGE_NOT_SATISFIABLE");
    // An If-Range naming an older version gets the whole file.
    const stale = await file("?path=results/table.tsv", { headers: { range: "bytes=0-9", "if-range": '"stale"' } });
    expect(stale.status).toBe(200);
    expect((await stale.text()).length).toBe(TEXT.length);
  });

  it("never lets markup run on this origin: HTML as text/plain, SVG sandboxed; images inline, binaries as attachments", async () => {
    const kinds: Record<string, [string, string, RegExp]> = {
      "results/page.html": ["text/plain; charset=utf-8", "inline", /^sandbox; default-src 'none'$/],
      "results/plots/plot.svg": ["image/svg+xml", "inline", /^sandbox; default-src 'none'; img-src 'self'/],
      "results/plots/plot.png": ["image/png", "inline", /^sandbox; default-src 'none'; img-src 'self'$/],
      "results/data.bin": ["application/octet-stream", "attachment", /^sandbox; default-src 'none'$/],
      "results/NOTES": ["text/plain; charset=utf-8", "inline", /^sandbox/],
      "results/reads.fastq.gz": ["application/gzip", "attachment", /^sandbox/],
    };
    for (const [path, [type, disposition, csp]] of Object.entries(kinds)) {
      const answer = await file(`?path=${encodeURIComponent(path)}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("content-type"), path).toBe(type);
      expect(answer.headers.get("content-disposition")?.split(";")[0], path).toBe(disposition);
      expect(answer.headers.get("content-security-policy"), path).toMatch(csp);
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      await answer.arrayBuffer();
    }
  });
});

describe("big files and folders", () => {
  it("streams a 24 MB file whole and by range, zips it, and stops a zip the client leaves", async () => {
    const big = Buffer.alloc(24 * 1024 * 1024);
    for (let at = 0; at < big.length; at += 4) big.writeUInt32LE(at, at);
    mkdirSync(join(workspace, "big"), { recursive: true });
    writeFileSync(join(workspace, "big", "matrix.dat"), big);
    const whole = await file("?path=big/matrix.dat");
    expect(whole.headers.get("content-length")).toBe(String(big.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
    const middle = await file("?path=big/matrix.dat", { headers: { range: "bytes=12582912-12582919" } });
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(big.subarray(12582912, 12582920));
    const zipped = unzipSync(new Uint8Array(await (await file("?path=big&format=zip")).arrayBuffer()));
    expect(Buffer.from(zipped["matrix.dat"]!).equals(big)).toBe(true);
    // A client that reads a little and leaves: the service carries on answering.
    const left = await file("?path=big&format=zip");
    const reader = left.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect((await file("?path=hi.txt")).status).toBe(200);
    const head = await file("?path=big&format=zip", { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([200, "application/zip", ""]);
  });

  it("lists at most 5,000 entries of a folder and says it left some out", async () => {
    const crowded = join(workspace, "crowded");
    mkdirSync(crowded);
    for (let index = 0; index < 5_003; index++) writeFileSync(join(crowded, `part-${String(index).padStart(5, "0")}.txt`), "x");
    const listing = (await (await file("?path=crowded")).json()) as { entries: { name: string }[]; truncated: boolean };
    expect(listing.truncated).toBe(true);
    expect(listing.entries).toHaveLength(5_000);
    expect(listing.entries[0]!.name).toBe("part-00000.txt");
  });
});

describe("confinement", () => {
  it("answers 404 NOT_FOUND for absolute paths, .., links to files and folders, paths through links, .strand and absent files alike", async () => {
    const paths = [
      "/etc/passwd",
      "..",
      "../secret.txt",
      "results/../../secret.txt",
      "results/../hi.txt",
      "results/secret-link.txt",
      "results/outside-link",
      "results/outside-link/secret.txt",
      "linked-folder",
      "linked-folder/secret.txt",
      ".strand",
      `.strand/runs/${runId}/events.jsonl`,
      "results/no-such-file.txt",
      "results\\..\\hi.txt",
    ];
    for (const path of paths) {
      for (const format of ["", "&format=zip"]) {
        const answer = await file(`?path=${encodeURIComponent(path)}${format}`);
        expect(answer.status, path).toBe(404);
        expect(((await answer.json()) as { code: string }).code, path).toBe("NOT_FOUND");
      }
    }
  });

  it("answers another user 404 for the run's files and jobs, as for a run that does not exist; an administrator reads them", async () => {
    for (const path of ["/files?path=hi.txt", "/files", "/files?format=zip", "/jobs", "/status?jobs=false"]) {
      const other = await team.call("other", "GET", `/api/runs/${runId}${path}`);
      expect(other.status, path).toBe(404);
      expect(other.body.code, path).toBe("NOT_FOUND");
      const unknown = await team.call("other", "GET", `/api/runs/no-such-run${path}`);
      expect(unknown.status, path).toBe(404);
    }
    const admin = await file("?path=hi.txt", { who: "admin" });
    expect(await admin.text()).toBe("hi\n");
  });

  it("refuses format=zip for a file with 400", async () => {
    const answer = await file("?path=hi.txt&format=zip");
    expect(answer.status).toBe(400);
  });
});
