/**
 * Durations as pipelines and profiles write them: `5s`, `2m`, `1h`, `1d` (retry_delay, time_limit,
 * poll_interval, `--timeout`), and scheduler walltimes in colon form (`04:00:00`, `1-12:00:00`).
 */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/i;

/** Parses `5s`, `2m`, `1h`, `1d` (unit mandatory, any case, decimals allowed) to milliseconds; undefined when unreadable. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!);
}

// `[D-]HH:MM[:SS]` or `D-HH`; two colon-separated fields are hours and minutes, as people write walltimes.
const COLON_WALLTIME = /^\s*(?:(\d+)-)?(\d+)(?::(\d{1,2}))?(?::(\d{1,2}))?\s*$/;

/** True for a walltime already written in scheduler form (`04:00:00`, `1-00:00:00`, `2-12`). */
export function isColonWalltime(text: string): boolean {
  const match = COLON_WALLTIME.exec(text);
  return match !== null && (match[1] !== undefined || match[3] !== undefined);
}

/**
 * Parses a walltime to milliseconds: a duration (`2h`, `90m`) or a colon form (`HH:MM:SS`, `HH:MM`,
 * `D-HH:MM:SS`, `D-HH:MM`, `D-HH`). A bare number is refused because schedulers disagree on its unit.
 */
export function parseWalltime(text: string): number | undefined {
  const duration = parseDuration(text);
  if (duration !== undefined) return duration;
  if (!isColonWalltime(text)) return undefined;
  const [, days, hours, minutes, seconds] = COLON_WALLTIME.exec(text)!;
  if (Number(minutes ?? 0) >= 60 || Number(seconds ?? 0) >= 60) return undefined;
  return ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes ?? 0)) * 60_000 + Number(seconds ?? 0) * 1000;
}

const two = (n: number): string => String(n).padStart(2, "0");

/** Renders milliseconds as `HH:MM:SS`, or `D-HH:MM:SS` from one day on (SLURM's form); seconds round up. */
export function walltime(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = `${two(Math.floor((total % 86_400) / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return days > 0 ? `${days}-${clock}` : clock;
}

/** Renders milliseconds as `HH:MM:SS` with as many hours as needed (`36:00:00`), for PBS and SGE, which have no day field. */
export function walltimeHours(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
}

/** Renders milliseconds for LSF's `-W`: `HH:MM` with minutes rounded up, or just `MM` under one hour. */
export function lsfRunLimit(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes < 60 ? String(minutes) : `${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}
