/**
 * How a page reacts to a data mutation without touching the cache: a mutation hook of src/web/api does its
 * own cache work (invalidating or setting what it changed) and then calls the page's reactions (navigate,
 * close a dialog, clear a form), in that order, within the same callback.
 */
import type { UseMutationOptions } from "@tanstack/react-query";

/** What a page adds to a mutation hook: its own success, failure and settling reactions. */
export type Reactions<TData, TVariables = void> = Pick<UseMutationOptions<TData, Error, TVariables>, "onSuccess" | "onError" | "onSettled">;

/** The page's reactions with the hook's cache work run first on success (awaited when it answers a promise). */
export function afterCacheWork<TData, TVariables>(cacheWork: (data: TData, variables: TVariables) => unknown, reactions: Reactions<TData, TVariables> = {}): Reactions<TData, TVariables> {
  return {
    ...reactions,
    onSuccess: async (data, variables, onMutateResult, context) => {
      await cacheWork(data, variables);
      return reactions.onSuccess?.(data, variables, onMutateResult, context);
    },
  };
}

/** The answer a request function resolves with. */
export type AnswerOf<Request extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<Request>>;
