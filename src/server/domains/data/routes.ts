/**
 * HTTP adapter of the data helpers and uploads: `GET /api/data/roots`, `POST /api/data/analyze`,
 * `POST /api/data/perceive`, `POST /api/data/template`, `POST /api/data/samplesheet/parse`, `POST /api/data/samplesheet`,
 * `POST /api/data/reference`, `GET /api/data/reference/status`, `POST /api/files` and `GET /api/files`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { noteAudit } from "../../middleware/audit.js";
import { engineWorkResponses, failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import { isInside, resolveInside } from "./data-roots.js";
import {
  AnalyzeBody,
  DataAnalysisSchema,
  DataRootList,
  FileListing,
  FilledTemplateSchema,
  GeneratedSheet,
  ListFilesQuery,
  ParsedSheetSchema,
  PerceiveBody,
  PerceptionSchema,
  ReferenceAnswer,
  ReferenceBody,
  ReferenceStatusAnswer,
  SheetGenerateBody,
  SheetParseBody,
  TemplateFromDataBody,
  UploadAnswer,
  UploadQuery,
} from "./schemas.js";
import type { DataService } from "./service.js";
import { FileSink, folderInside, folderSegments, listFolder, multipartBoundary, multipartEvents, nameProblem, shownName, type StoredFile } from "./uploads.js";

const notYours = failureResponse("a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed)");

const rootsRoute = createRoute({
  method: "get",
  path: "/api/data/roots",
  operationId: "listDataRoots",
  tags: ["data"],
  summary: "The folders you may read: your own files folder (relative paths), the data roots, your home (personal mode without data roots)",
  responses: { 200: jsonResponse(DataRootList, "your folders") },
});

const analyzeRoute = createRoute({
  method: "post",
  path: "/api/data/analyze",
  operationId: "analyzeData",
  tags: ["data"],
  summary: "Formats by content, FASTQ read length and quality encoding, pairs, lanes and samples, and template suggestions (bounded walk, no links followed)",
  request: jsonBody(AnalyzeBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(DataAnalysisSchema, "the analysis (paths as you gave them)"), 404: notYours },
});

const templateRoute = createRoute({
  method: "post",
  path: "/api/data/template",
  operationId: "templateFromData",
  tags: ["data"],
  summary: "A built-in template with the samples and reads of your files written in (the analysis' first suggestion unless named); a proposal, not saved",
  request: jsonBody(TemplateFromDataBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(FilledTemplateSchema, "the filled template and the analysis it rests on"), 400: failureResponse("no FASTQ samples, or no such template (DATA_ERROR)"), 404: notYours },
});

const perceiveRoute = createRoute({
  method: "post",
  path: "/api/data/perceive",
  operationId: "perceiveData",
  tags: ["data"],
  summary: "Findings from the files and your description, each with its source, evidence and confidence; conflicts between the two reported",
  request: jsonBody(PerceiveBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(PerceptionSchema, "what is known of the data"), 404: notYours },
});

const parseSheetRoute = createRoute({
  method: "post",
  path: "/api/data/samplesheet/parse",
  operationId: "parseSampleSheet",
  tags: ["data"],
  summary: "Read an nf-core-style sample sheet (CSV or TSV) by header name, with problems per row and column (files checked inside your folders only)",
  request: jsonBody(SheetParseBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(ParsedSheetSchema, "the sheet as read, valid or not"), 404: notYours },
});

const generateSheetRoute = createRoute({
  method: "post",
  path: "/api/data/samplesheet",
  operationId: "generateSampleSheet",
  tags: ["data"],
  summary: "Write a sample sheet (sample,fastq_1,fastq_2; one row per lane) from the analysis of your files",
  request: jsonBody(SheetGenerateBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(GeneratedSheet, "the sheet"), 400: failureResponse("no FASTQ samples found (DATA_ERROR)"), 404: notYours },
});

const referenceRoute = createRoute({
  method: "post",
  path: "/api/data/reference",
  operationId: "findReference",
  tags: ["data"],
  summary: "One genome in the reference roots (SERVICE_REFERENCE_ROOTS): the components found, those missing and the commands to obtain or build them",
  request: jsonBody(ReferenceBody),
  responses: { ...engineWorkResponses, 200: jsonResponse(ReferenceAnswer, "the genome's status"), 400: failureResponse("an unknown component (REF_ERROR)") },
});

const referenceStatusRoute = createRoute({
  method: "get",
  path: "/api/data/reference/status",
  operationId: "getReferenceStatus",
  tags: ["data"],
  summary: "Every genome in the reference roots, and the well-known builds that are missing, with download and build commands",
  responses: { ...engineWorkResponses, 200: jsonResponse(ReferenceStatusAnswer, "the reference roots' genomes") },
});

const uploadRoute = createRoute({
  method: "post",
  path: "/api/files",
  operationId: "uploadFiles",
  tags: ["data"],
  summary: "Upload into your files folder (uploads/ or ?path=): the raw file with ?name=, or multipart/form-data file parts; streamed to disk, size-limited (SERVICE_UPLOAD_LIMIT_MB)",
  request: {
    query: UploadQuery,
    // Plain JSON Schema (not zod): the body is streamed by the handler, never parsed whole by a validator.
    body: {
      required: true,
      content: {
        "application/octet-stream": { schema: { type: "string", format: "binary" } },
        "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } },
      },
    },
  },
  responses: {
    201: jsonResponse(UploadAnswer, "the stored file (the first one, and every one under files)"),
    400: failureResponse("a bad name or folder (INVALID_NAME, INVALID_PATH) or a malformed body"),
    409: failureResponse("a file of that name exists (add overwrite=true)"),
    413: failureResponse("a file over the upload limit (PAYLOAD_TOO_LARGE); nothing of it is kept"),
  },
});

const listFilesRoute = createRoute({
  method: "get",
  path: "/api/files",
  operationId: "listFiles",
  tags: ["data"],
  summary: "The entries of a folder: relative paths in your files folder, absolute ones in the data folders you may read (no links followed, at most 1000)",
  request: { query: ListFilesQuery },
  responses: { 200: jsonResponse(FileListing, "the folder's entries"), 404: failureResponse("no such folder in your data folders (existence is never revealed)") },
});

/** How much of a refused body is still read (and thrown away) so the client gets to read the answer. */
const DRAIN = { bytes: 256 * 1024 * 1024, ms: 10_000 };

/** The data helpers' router. */
export function dataRoutes(service: DataService, options: { uploadLimitBytes: number }): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(rootsRoute, (c) => c.json({ roots: service.roots(callerOf(c)) }, 200));
  router.openapi(analyzeRoute, async (c) => c.json(await service.analyze(callerOf(c), c.req.valid("json")), 200), bodyHook);
  router.openapi(templateRoute, async (c) => c.json(await service.fillTemplate(callerOf(c), c.req.valid("json")), 200), bodyHook);
  router.openapi(perceiveRoute, async (c) => c.json(await service.perceive(callerOf(c), c.req.valid("json")), 200), bodyHook);
  router.openapi(parseSheetRoute, async (c) => c.json(await service.parseSheet(callerOf(c), c.req.valid("json")), 200), bodyHook);
  router.openapi(generateSheetRoute, async (c) => c.json(await service.generateSheet(callerOf(c), c.req.valid("json")), 200), bodyHook);
  router.openapi(referenceRoute, async (c) => c.json(await service.reference(c.req.valid("json")), 200), bodyHook);
  router.openapi(referenceStatusRoute, async (c) => c.json(await service.referenceStatus(), 200));

  router.openapi(listFilesRoute, (c) => {
    const caller = callerOf(c);
    const given = c.req.valid("query").path ?? "";
    const rule = service.places.confinementOf(caller);
    const absolute = given.startsWith("/");
    const folder = given === "" || given === "." ? rule.own : resolveInside(rule, given);
    const missing = new ServiceError("NOT_FOUND", `${given} is not a folder of your data folders`, { suggestion: "GET /api/data/roots lists the folders you may read; GET /api/files lists your own files folder" });
    // A relative path is inside the caller's own folder; an absolute one inside any folder they may read.
    if (folder === undefined || (!absolute && !isInside(rule.own, folder))) throw missing;
    try {
      const trimmed = given.replace(/\/+$/, "");
      const listing = listFolder(folder, given === "." ? "" : trimmed);
      // A data root of / itself: its entries are still absolute.
      if (absolute && trimmed === "") for (const entry of listing.entries) entry.path = `/${entry.name}`;
      return c.json({ path: given === "" ? "." : given, ...listing }, 200);
    } catch {
      throw missing;
    }
  });

  router.openapi(uploadRoute, async (c) => {
    const caller = callerOf(c);
    const query = c.req.valid("query");
    const limit = options.uploadLimitBytes;
    const tooLarge = () =>
      new ServiceError("PAYLOAD_TOO_LARGE", `the file is over the upload limit of ${Math.round(limit / 1024 / 1024)} MiB; nothing of it was kept`, {
        suggestion: "upload a smaller file, or ask the operator to raise SERVICE_UPLOAD_LIMIT_MB (large data belongs in a data root)",
      });
    // Multipart framing adds a little to the files; a declared length well past the limit is refused unread.
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > limit + 1024 * 1024) throw tooLarge();
    const segments = folderSegments(query.path ?? "uploads");
    const overwrite = query.overwrite === "true";
    const boundary = multipartBoundary(c.req.header("content-type") ?? "");
    if (!boundary) {
      const problem = query.name === undefined ? "give the file's name with ?name=" : nameProblem(query.name);
      if (problem) throw new ServiceError("INVALID_NAME", problem, { suggestion: "a plain file name: no /, no leading dot, no control or invisible format characters" });
    }
    const body = c.req.raw.body;
    if (!body) throw new ServiceError("BAD_REQUEST", "the request has no body", { suggestion: "send the file as the body (with ?name=) or as multipart/form-data" });
    const own = service.places.ownFolder(caller);
    const folder = folderInside(own, segments);
    const shownFolder = segments.join("/");
    const reader = body.getReader();
    // Not `for await` over the stream itself: leaving that loop would cancel the request mid-upload.
    const chunks: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      },
    };
    const stored: StoredFile[] = [];
    let sink: FileSink | undefined;
    try {
      if (boundary) {
        for await (const event of multipartEvents(chunks, boundary)) {
          if (event.type === "part") {
            if (event.filename === null) continue; // a text field: its bytes are skipped
            const name = event.filename.split(/[\\/]/).pop() ?? "";
            const problem = nameProblem(name);
            if (problem) throw new ServiceError("INVALID_NAME", `${shownName(name)}: ${problem}`, { suggestion: "rename the file: no leading dot, no control or invisible format characters" });
            sink = new FileSink(folder, name, limit);
            await sink.start();
          } else if (event.type === "data") {
            if (sink && !(await sink.write(event.chunk))) throw tooLarge();
          } else if (sink) {
            stored.push(await sink.finish(overwrite, shownFolder));
            sink = undefined;
          }
        }
        if (stored.length === 0) throw new ServiceError("BAD_REQUEST", "the multipart body has no file part", { suggestion: "add a part with a filename" });
      } else {
        sink = new FileSink(folder, query.name!, limit);
        await sink.start();
        for await (const chunk of chunks) if (!(await sink.write(chunk))) throw tooLarge();
        stored.push(await sink.finish(overwrite, shownFolder));
        sink = undefined;
      }
    } catch (error) {
      await sink?.abort();
      await drain(reader);
      throw error;
    }
    noteAudit(c, "file.upload", `files/${stored[0]!.path}`);
    return c.json({ ...stored[0]!, files: stored }, 201);
  });
  return router;
}

/** Reads what is left of a refused body (bounded in bytes and time), then lets it go. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  const until = Date.now() + DRAIN.ms;
  let bytes = 0;
  try {
    while (bytes < DRAIN.bytes && Date.now() < until) {
      const { done, value } = await reader.read();
      if (done) return;
      bytes += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing to read.
  }
}
