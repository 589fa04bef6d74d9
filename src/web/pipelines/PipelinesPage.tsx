/** Saved pipelines: the list the caller may see, most recently changed first, filtered as you type. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf } from "../api.js";
import { QueryState } from "../components/QueryState.js";

export function PipelinesPage() {
  const [filter, setFilter] = useState("");
  const pipelines = useQuery({ queryKey: ["pipelines"], queryFn: async () => dataOf(await api.GET("/api/pipelines", { params: { query: { limit: 100 } } })) });
  const words = filter.trim().toLowerCase();
  const shown = (pipelines.data ?? []).filter((pipeline) => !words || `${pipeline.name} ${pipeline.description ?? ""} ${pipeline.tags.join(" ")}`.toLowerCase().includes(words));
  return (
    <section aria-labelledby="pipelines-title">
      <div className="page-head">
        <h1 id="pipelines-title">Pipelines</h1>
        <input type="search" placeholder="Filter by name, description or tag" aria-label="Filter pipelines" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </div>
      <QueryState
        query={pipelines}
        empty={!pipelines.data || shown.length > 0 ? null : pipelines.data.length === 0 ? "No saved pipelines yet. Save one with POST /api/pipelines or start from a template." : "No pipeline matches the filter."}
      />
      {shown.length > 0 ? (
        <table className="listing">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Rules</th>
              <th scope="col">Visibility</th>
              <th scope="col">Revision</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((pipeline) => (
              <tr key={pipeline.id}>
                <td>
                  <strong>{pipeline.name}</strong>
                  {pipeline.description ? <div className="muted">{pipeline.description}</div> : null}
                </td>
                <td>{pipeline.rules_count}</td>
                <td>
                  <span className={`badge badge-${pipeline.visibility}`}>{pipeline.visibility}</span>
                </td>
                <td>{pipeline.revision}</td>
                <td>
                  <time dateTime={pipeline.updated_at}>{new Date(pipeline.updated_at).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
