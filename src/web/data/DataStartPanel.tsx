/**
 * "Start from my data": pick a folder (your own files folder, where uploads go, or a data root you may
 * read), see what the service found in it (`POST /api/data/analyze`: formats by content, pairs, lanes,
 * samples, read length), choose one of the suggested templates and see it filled with the samples and reads
 * (`POST /api/data/template`). The filled text reaches the editor only when the user opens it there, unsaved.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import type { components } from "../../client/api-types.js";
import { useAnalyseData, useFillTemplate } from "../api/data.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { byteSize } from "../components/formatting.js";
import { FolderBrowser } from "./FolderBrowser.js";
// Cards, previews and buttons as on the other new-pipeline choices.
import "../pipelines/pipelines.css";
import "./data.css";

type Analysis = components["schemas"]["DataAnalysis"];
type Filled = components["schemas"]["FilledTemplate"];

/** Where the user is in the flow: choosing, then looking at the analysis of `folder`. */
export function DataStartPanel({ onUse }: { onUse: (toml: string) => void }) {
  const [folder, setFolder] = useState<string | undefined>();
  const [chosen, setChosen] = useState<string | undefined>();
  const analysis = useAnalyseData({ onSuccess: (answer) => setChosen(answer.suggested_workflow?.template) });
  const filled = useFillTemplate();
  const analyse = (path: string) => {
    setFolder(path);
    filled.reset();
    analysis.mutate(path);
  };
  const fill = (template: string) => {
    setChosen(template);
    if (folder !== undefined) filled.mutate({ path: folder, template });
  };
  // Another template chosen: the filled one shown no longer matches the choice.
  const choose = (template: string) => {
    setChosen(template);
    filled.reset();
  };
  // Each answer is brought into view (it opens below what was clicked).
  useEffect(() => {
    if (analysis.data) document.getElementById("data-analysis-title")?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [analysis.data]);
  useEffect(() => {
    if (filled.data) document.getElementById("data-filled-title")?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [filled.data]);

  return (
    <div className="data-start">
      <ol className="data-steps" aria-label="Steps">
        <li className={folder === undefined ? "data-step-on" : ""}>Pick a folder</li>
        <li className={analysis.data && !filled.data ? "data-step-on" : ""}>See the analysis</li>
        <li className={filled.data ? "data-step-on" : ""}>Accept a template</li>
      </ol>
      <section className="data-panel" aria-labelledby="data-pick-title">
        <h2 id="data-pick-title">1. Pick a folder</h2>
        <FolderBrowser onAnalyse={analyse} analysing={analysis.isPending} />
      </section>
      {analysis.isPending ? (
        <p className="muted" role="status">
          Looking at the files in {folder}…
        </p>
      ) : null}
      {analysis.error ? <ErrorNotice error={analysis.error} /> : null}
      {analysis.data && folder !== undefined ? <AnalysisView folder={folder} analysis={analysis.data} chosen={chosen} onChoose={choose} onFill={fill} filling={filled.isPending} /> : null}
      {filled.error ? <ErrorNotice error={filled.error} /> : null}
      {filled.data ? <FilledView filled={filled.data} onUse={onUse} /> : null}
    </div>
  );
}

function AnalysisView({ folder, analysis, chosen, onChoose, onFill, filling }: { folder: string; analysis: Analysis; chosen: string | undefined; onChoose: (id: string) => void; onFill: (id: string) => void; filling: boolean }) {
  const { summary } = analysis;
  const choiceName = useId();
  const facts = [
    `${summary.files} file${summary.files === 1 ? "" : "s"} (${byteSize(summary.total_size)})`,
    `${analysis.samples.length} sample${analysis.samples.length === 1 ? "" : "s"}`,
    summary.layout ? `${summary.layout === "mixed" ? "mixed single- and paired-end" : `${summary.layout}-end`} reads` : undefined,
    summary.read_length ? `reads of ${summary.read_length.min === summary.read_length.max ? summary.read_length.min : `${summary.read_length.min}–${summary.read_length.max}`} bases` : undefined,
    summary.quality_encoding && summary.quality_encoding !== "unknown" ? `qualities ${summary.quality_encoding === "phred33" ? "Phred+33" : summary.quality_encoding === "phred64" ? "Phred+64" : "mixed"}` : undefined,
  ].filter(Boolean);
  const name = (path: string) => (path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : path);
  // The analysis' warnings (the samples' problems among them) and each file's, which start with its path.
  const problems = [...analysis.warnings, ...analysis.files.flatMap((file) => file.warnings.map((warning) => (warning.startsWith(file.path) ? name(file.path) + warning.slice(file.path.length) : warning)))];
  return (
    <section className="data-panel" aria-labelledby="data-analysis-title">
      <h2 id="data-analysis-title">
        2. What is in <span className="mono">{folder}</span>
      </h2>
      <p className="data-facts" role="status">
        {facts.join(" · ")}
        {analysis.truncated ? " · the scan stopped early (too many files): pick a smaller folder" : ""}
      </p>
      {problems.length > 0 ? (
        <ul className="data-warnings" aria-label="Warnings">
          {problems.map((problem) => (
            <li key={problem}>⚠ {problem}</li>
          ))}
        </ul>
      ) : null}
      {analysis.samples.length > 0 ? (
        <table className="data-table" aria-label="Samples">
          <thead>
            <tr>
              <th scope="col">Sample</th>
              <th scope="col">Layout</th>
              <th scope="col">Lanes</th>
              <th scope="col">Files</th>
            </tr>
          </thead>
          <tbody>
            {analysis.samples.map((sample) => (
              <tr key={sample.sample}>
                <th scope="row">{sample.sample}</th>
                <td>{sample.layout === "paired" ? "paired-end" : sample.layout === "single" ? "single-end" : "mixed"}</td>
                <td>{sample.lanes.length > 0 ? sample.lanes.map((lane) => `L${String(lane).padStart(3, "0")}`).join(", ") : "–"}</td>
                <td className="mono data-file-names">{[...sample.r1, ...sample.r2, ...sample.single].map((path) => path.split("/").pop()).join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="empty">No FASTQ samples here: the templates below start from reads.</p>
      )}
      <details className="data-files">
        <summary>Every file ({analysis.files.length})</summary>
        <table className="data-table" aria-label="Files">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Format</th>
              <th scope="col">Sample</th>
              <th scope="col">Read</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {analysis.files.map((file) => (
              <tr key={file.path}>
                <th scope="row" className="mono">
                  {name(file.path)}
                </th>
                <td>
                  {file.format}
                  {file.compression !== "none" ? ` (${file.compression})` : ""}
                  {file.name_suggests && file.name_suggests !== file.format ? <span className="data-mislabel"> named as {file.name_suggests}</span> : null}
                </td>
                <td>{file.sample_name ?? "–"}</td>
                <td>{file.read ? `R${file.read}${file.lane ? ` · L${String(file.lane).padStart(3, "0")}` : ""}` : "–"}</td>
                <td>{byteSize(file.size)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {analysis.suggestions.length > 0 ? (
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (chosen) onFill(chosen);
          }}
        >
          <fieldset className="pl-templates data-suggestions">
            <legend>Suggested templates</legend>
            {analysis.suggestions.map((suggestion) => (
              <label key={suggestion.template} className={suggestion.template === chosen ? "pl-template pl-template-on" : "pl-template"}>
                <input type="radio" name={choiceName} value={suggestion.template} checked={suggestion.template === chosen} onChange={() => onChoose(suggestion.template)} />
                <span className="pl-template-title">
                  {suggestion.title} <span className="pl-chip pl-chip-quiet">score {Math.round(suggestion.score * 100)}%</span>
                </span>
                <span className="muted">{suggestion.reason}</span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="pl-primary" disabled={!chosen || filling} aria-busy={filling}>
            {filling ? "Filling in…" : "Fill in this template"}
          </button>
        </form>
      ) : (
        <p className="empty">No template suits these files; start from a template or from scratch instead.</p>
      )}
    </section>
  );
}

function FilledView({ filled, onUse }: { filled: Filled; onUse: (toml: string) => void }) {
  const reads =
    filled.reads.how === "pattern"
      ? `The read inputs now name your files: ${filled.reads.r1}${filled.reads.r2 ? ` and ${filled.reads.r2}` : ""}.`
      : filled.reads.how === "staged"
        ? `A rule (${filled.reads.rule}) gathers each sample's files, all lanes, into the paths the template reads.`
        : `The template's read paths are unchanged: ${filled.reads.reason}.`;
  return (
    <section className="data-panel" aria-labelledby="data-filled-title">
      <h2 id="data-filled-title">3. {filled.title}, filled in</h2>
      <p role="status">
        {filled.samples.length} sample{filled.samples.length === 1 ? "" : "s"}: <span className="mono">{filled.samples.join(", ")}</span>. {reads}
      </p>
      {filled.notes.length > 0 ? (
        <ul className="data-warnings" aria-label="Notes">
          {filled.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <pre className="pl-toml data-preview" tabIndex={0} aria-label="Filled pipeline preview">
        {filled.toml_content}
      </pre>
      <div className="pl-form-actions">
        <button type="button" className="pl-primary" onClick={() => onUse(filled.toml_content)}>
          Open in the editor
        </button>
        <span className="muted">Nothing is saved until you save it there.</span>
      </div>
    </section>
  );
}
