/** The service's health answer: its version and mode, which the header shows and the sign-in rules read. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "./client.js";

/** Query keys of the health answer. */
export const healthKeys = {
  all: ["health"] as const,
};

/** `GET /api/health`: version, mode, uptime. */
export function healthQuery() {
  return queryOptions({ queryKey: healthKeys.all, queryFn: async () => dataOf(await api.GET("/api/health")) });
}

/** The service's mode (`undefined` while the health answer is on its way), from the shared health query. */
export function useServiceMode() {
  const health = useQuery(healthQuery());
  return { mode: health.data?.mode, health };
}
