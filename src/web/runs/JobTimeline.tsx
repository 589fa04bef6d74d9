/**
 * A compact Gantt of the run's jobs: each job a bar from its start to its end (or now), packed into lanes so
 * jobs that ran at once stack, coloured by rule. It draws one page of jobs (the 500 most recently started),
 * never all of a huge run (500 jobs: a page the service answers fast); the caption says how many it shows.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { formatCount, formatDuration } from "../components/formatting.js";
import { isTerminal, timelineQuery } from "../api/runs.js";
import { packLanes } from "./timeline-lanes.js";
import { useInView } from "./useInView.js";

const PAGE = 500;
const LANE_HEIGHT = 12;
const MAX_LANES = 48;
const WIDTH = 1000;
const LEFT = 8;
const PALETTE = ["#0f766e", "#1d4ed8", "#7c3aed", "#c2410c", "#0369a1", "#a16207", "#be185d", "#4d7c0f", "#6d28d9", "#0e7490"];

/** A stable colour for a rule. */
export function ruleColour(rule: string, rules: string[]): string {
  const index = rules.indexOf(rule);
  return PALETTE[(index < 0 ? 0 : index) % PALETTE.length]!;
}

export function JobTimeline({ runId, runStatus, rules, ready, dryRun }: { runId: string; runStatus: string; rules: string[]; ready: boolean; dryRun: boolean }) {
  const [anchor, visible] = useInView<HTMLDivElement>();
  const jobs = useQuery({
    ...timelineQuery(runId, PAGE),
    enabled: visible && ready,
    refetchInterval: isTerminal(runStatus) ? false : 10_000,
  });
  // "Now" for a running job is when its page was read (there is no bar before then).
  const now = jobs.dataUpdatedAt;
  const drawn = useMemo(() => packLanes(jobs.data?.items ?? [], now, MAX_LANES), [jobs.data, now]);
  if (jobs.error) return <ErrorNotice error={jobs.error} />;
  if (!jobs.data)
    return (
      <p className="muted" ref={anchor}>
        Loading the timeline…
      </p>
    );
  if (drawn.bars.length === 0) return <p className="muted">{dryRun ? "A dry run only plans: no job starts." : "No job has started yet."}</p>;
  const { bars, start, end, lanes } = drawn;
  const span = Math.max(1, end - start);
  const x = (time: number) => LEFT + ((time - start) / span) * (WIDTH - 2 * LEFT);
  const height = lanes * LANE_HEIGHT + 24;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((part) => ({ at: x(start + part * span), label: formatDuration(part * span) }));
  const total = jobs.data.total;
  return (
    <figure className="timeline">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={`Timeline of ${bars.length} jobs over ${formatDuration(span)}`} preserveAspectRatio="none" style={{ height }}>
        {ticks.map((tick) => (
          <line key={tick.at} x1={tick.at} x2={tick.at} y1={0} y2={height - 18} className="grid" />
        ))}
        {bars.map((bar) => (
          <rect
            key={bar.job.index}
            x={x(bar.from)}
            y={bar.lane * LANE_HEIGHT + 2}
            width={Math.max(2, x(bar.to) - x(bar.from))}
            height={LANE_HEIGHT - 3}
            rx={2}
            fill={ruleColour(bar.job.rule, rules)}
            className={`bar bar-${bar.job.status}`}
          >
            <title>{`${bar.job.job} (${bar.job.rule}) · ${bar.job.status} · ${formatDuration(bar.to - bar.from)}`}</title>
          </rect>
        ))}
        {ticks.map((tick, index) => (
          <text key={tick.at} x={tick.at} y={height - 4} className="axis" textAnchor={index === 0 ? "start" : index === ticks.length - 1 ? "end" : "middle"}>
            {tick.label}
          </text>
        ))}
      </svg>
      <figcaption className="muted">
        <span className="legend">
          {rules.map((rule) => (
            <span key={rule}>
              <span className="swatch" style={{ background: ruleColour(rule, rules) }} aria-hidden="true" />
              {rule}
            </span>
          ))}
        </span>
        {total > PAGE ? ` The ${formatCount(PAGE)} most recently started of ${formatCount(total)} jobs.` : ` ${formatCount(bars.length)} jobs that started.`}
        {drawn.hidden > 0 ? ` ${formatCount(drawn.hidden)} ran alongside more than ${MAX_LANES} others and are not drawn.` : ""}
      </figcaption>
    </figure>
  );
}
