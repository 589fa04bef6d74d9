/**
 * CPU and memory of a running run, as the status view reports them: this page samples them each time the
 * status refreshes and draws the samples as two lines in one SVG chart (CPU % on the left axis, memory on
 * the right), with the latest values and the peak memory beside it.
 */
import { useState } from "react";
import { byteSize } from "../components/formatting.js";
import type { RunStatusView } from "../api/runs.js";

interface Sample {
  time: number;
  cpu: number;
  memory: number;
}

const MAX_SAMPLES = 600;
const W = 560;
const H = 180;
const PAD = { left: 44, right: 56, top: 10, bottom: 24 };

export function ResourceChart({ resources, sampledAt, running }: { resources: RunStatusView["resources"] | undefined; sampledAt: number; running: boolean }) {
  // A sample each time the status refreshes while the run works (taken while rendering, once per refresh).
  const [samples, setSamples] = useState<Sample[]>([]);
  if (resources && running && sampledAt !== 0 && samples.at(-1)?.time !== sampledAt) {
    setSamples([...samples, { time: sampledAt, cpu: resources.cpu_pct, memory: resources.memory_mb }].slice(-MAX_SAMPLES));
  }

  const mb = (value: number) => byteSize(value * 1024 * 1024);
  const latest = resources;
  const summary = latest ? (
    <dl className="resource-figures">
      <div>
        <dt>CPU</dt>
        <dd>{latest.cpu_pct.toFixed(0)} %</dd>
      </div>
      <div>
        <dt>Memory</dt>
        <dd>{mb(latest.memory_mb)}</dd>
      </div>
      <div>
        <dt>Peak memory</dt>
        <dd>{mb(latest.peak_memory_mb)}</dd>
      </div>
      <div>
        <dt>Disk</dt>
        <dd>{mb(latest.disk_mb)}</dd>
      </div>
    </dl>
  ) : null;
  if (samples.length < 2) {
    return (
      <div className="resources">
        {summary}
        <p className="muted">{running ? "Sampling CPU and memory while the run works…" : "CPU and memory are charted while a running run is open here."}</p>
      </div>
    );
  }
  const t0 = samples[0]!.time;
  const t1 = samples.at(-1)!.time;
  const cpuMax = Math.max(100, ...samples.map((sample) => sample.cpu));
  const memMax = Math.max(1, ...samples.map((sample) => sample.memory)) * 1.1;
  const x = (time: number) => PAD.left + ((time - t0) / Math.max(1, t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (value: number, max: number) => PAD.top + (1 - value / max) * (H - PAD.top - PAD.bottom);
  const line = (pick: (sample: Sample) => number, max: number) => samples.map((sample, index) => `${index ? "L" : "M"}${x(sample.time).toFixed(1)},${y(pick(sample), max).toFixed(1)}`).join(" ");
  const seconds = Math.round((t1 - t0) / 1000);
  return (
    <div className="resources">
      {summary}
      <svg viewBox={`0 0 ${W} ${H}`} className="resource-chart" role="img" aria-label={`CPU and memory over the last ${seconds} seconds: CPU now ${latest?.cpu_pct.toFixed(0) ?? "?"} %, memory ${latest ? mb(latest.memory_mb) : "?"}`}>
        {[0, 0.5, 1].map((part) => (
          <g key={part}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(part * cpuMax, cpuMax)} y2={y(part * cpuMax, cpuMax)} className="grid" />
            <text x={PAD.left - 6} y={y(part * cpuMax, cpuMax) + 4} textAnchor="end" className="axis cpu-axis">
              {Math.round(part * cpuMax)}%
            </text>
            <text x={W - PAD.right + 6} y={y(part * memMax, memMax) + 4} className="axis mem-axis">
              {mb(part * memMax)}
            </text>
          </g>
        ))}
        <path d={line((sample) => sample.cpu, cpuMax)} className="cpu-line" />
        <path d={line((sample) => sample.memory, memMax)} className="mem-line" />
        <text x={PAD.left} y={H - 6} className="axis">
          −{seconds} s
        </text>
        <text x={W - PAD.right} y={H - 6} textAnchor="end" className="axis">
          now
        </text>
      </svg>
      <p className="chart-legend muted">
        <span className="swatch cpu-swatch" aria-hidden="true" /> CPU (left axis) <span className="swatch mem-swatch" aria-hidden="true" /> memory (right axis)
      </p>
    </div>
  );
}
