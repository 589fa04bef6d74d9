/** The pipeline's figures from `POST /api/pipelines/stats`, compactly. */
import type { PipelineStats } from "../api/workflow-tooling.js";

export function StatsPanel({ stats }: { stats: PipelineStats | undefined }) {
  return (
    <section className="editor-panel stats-panel" aria-labelledby="stats-title">
      <header className="editor-panel-head">
        <h2 id="stats-title">Stats</h2>
      </header>
      {!stats ? (
        <p className="panel-empty">Figures appear once the text parses.</p>
      ) : (
        <dl className="stats-grid">
          <div><dt>Rules</dt><dd>{stats.rules}</dd></div>
          <div><dt>Jobs</dt><dd>{stats.jobs}</dd></div>
          <div><dt>Levels</dt><dd>{stats.levels}</dd></div>
          <div><dt>Dependencies</dt><dd>{stats.dependencies}</dd></div>
          <div><dt>Threads</dt><dd>{stats.total_threads}</dd></div>
          <div><dt>Samples</dt><dd>{stats.samples}{stats.pairs ? ` · ${stats.pairs} pairs` : ""}</dd></div>
          <div className="stats-wide"><dt>Environments</dt><dd className="mono">{stats.environments.length ? stats.environments.join(", ") : "system only"}</dd></div>
          <div className="stats-wide"><dt>Wildcards</dt><dd className="mono">{stats.wildcard_names.length ? stats.wildcard_names.map((name) => `{${name}}`).join(" ") : "none"}</dd></div>
        </dl>
      )}
    </section>
  );
}
