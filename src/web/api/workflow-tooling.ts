/**
 * The service's stateless tooling on a pipeline text the editor holds (nothing is saved): validate, lint,
 * parse, graph and stats, each answer labelled with the text it is about and keyed by it, so an answer can
 * never be shown for a newer text; and formatting.
 */
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { ApiError } from "./errors.js";
import type { Reactions } from "./reactions.js";

/** A finding of validate or lint, with its line and column. */
export type Finding = components["schemas"]["Finding"];
/** `POST /api/pipelines/dag`'s answer. */
export type DagResult = components["schemas"]["DagResult"];
/** `POST /api/pipelines/parse`'s answer. */
export type ParseResult = components["schemas"]["ParseResult"];
/** The figures of `POST /api/pipelines/stats`. */
export type PipelineStats = components["schemas"]["StatsResult"];

/** The checks after validate, each asked only for a text that parses. */
export type CheckKind = "lint" | "parse" | "dag" | "stats";

/** Query keys of the checks of a text. */
export const checkKeys = {
  all: ["pipeline-check"] as const,
  check: (kind: CheckKind | "validate", text: string | undefined) => [...checkKeys.all, kind, text] as const,
};

/** One answer, labelled with the text it is about: its value, or the service's refusal of that text. */
export interface TextAnswer<T> {
  text: string;
  value?: T;
  problem?: string;
}

/**
 * How the checks are asked: an answer stays shown while the next text is checked, is never asked again for
 * the same text, and a 429 ("too many requests") is asked again after a pause, a few times.
 */
const CHECK_OPTIONS = {
  placeholderData: keepPreviousData,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: 60_000,
  refetchOnWindowFocus: false,
  retry: (count: number, error: Error) => error instanceof ApiError && error.status === 429 && count < 4,
  retryDelay: (_count: number, error: Error) => (error instanceof ApiError && error.status === 429 ? 5_000 : 1_000),
} as const;

/** `POST /api/pipelines/validate` of `text` (it answers 200 even for text that does not parse, with the parse error at its line). */
export function validationQuery(text: string | undefined) {
  return queryOptions({
    queryKey: checkKeys.check("validate", text),
    queryFn: async ({ signal }) => ({ text: text!, value: dataOf(await api.POST("/api/pipelines/validate", { body: { toml_content: text! }, signal })) }),
    enabled: text !== undefined,
    ...CHECK_OPTIONS,
  });
}

async function answerFor<T>(text: string, request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<TextAnswer<T>> {
  try {
    return { text, value: dataOf(await request) };
  } catch (error) {
    // A refusal about the text is an answer; "too many requests" is not: it is asked again later.
    if (error instanceof ApiError && error.status !== 429) return { text, problem: error.message };
    throw error;
  }
}

const CHECKS = {
  lint: (toml_content: string, signal: AbortSignal) => api.POST("/api/pipelines/lint", { body: { toml_content }, signal }),
  parse: (toml_content: string, signal: AbortSignal) => api.POST("/api/pipelines/parse", { body: { toml_content }, signal }),
  dag: (toml_content: string, signal: AbortSignal) => api.POST("/api/pipelines/dag", { body: { toml_content, limit: 20_000 }, signal }),
  stats: (toml_content: string, signal: AbortSignal) => api.POST("/api/pipelines/stats", { body: { toml_content }, signal }),
};

/** The answer type of each check. */
type CheckAnswer<Kind extends CheckKind> = NonNullable<Awaited<ReturnType<(typeof CHECKS)[Kind]>>["data"]>;

/** One check of `text`, asked while `enabled`; a refusal of the text is its answer's `problem`. */
export function checkQuery<Kind extends CheckKind>(kind: Kind, text: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: checkKeys.check(kind, text),
    queryFn: ({ signal }) => answerFor<CheckAnswer<Kind>>(text!, CHECKS[kind](text ?? "", signal) as Promise<{ data?: CheckAnswer<Kind>; error?: unknown; response: Response }>),
    enabled,
    ...CHECK_OPTIONS,
  });
}

const formatPipeline = async (toml_content: string) => dataOf(await api.POST("/api/pipelines/format", { body: { toml_content } }));

/** `POST /api/pipelines/format` of a text: the canonical formatting and whether it changed. */
export function useFormatPipeline(reactions?: Reactions<Awaited<ReturnType<typeof formatPipeline>>, string>) {
  return useMutation({ mutationFn: formatPipeline, ...reactions });
}
