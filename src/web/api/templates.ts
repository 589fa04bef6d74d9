/** The service's pipeline templates (built in and added by users), which a new pipeline starts from. */
import { queryOptions } from "@tanstack/react-query";
import { api, dataOf } from "./client.js";

/** Query keys of the templates. */
export const templateKeys = {
  all: ["templates"] as const,
  list: () => [...templateKeys.all, "list"] as const,
};

/** `GET /api/templates`: every template with its TOML (they change only when the service restarts or a user adds one). */
export function templatesQuery() {
  return queryOptions({ queryKey: templateKeys.list(), queryFn: async () => dataOf(await api.GET("/api/templates")), staleTime: 300_000 });
}
