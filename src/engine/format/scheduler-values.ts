/**
 * The form of the values a pipeline hands to a scheduler's directive lines (issue 25, finding 3): a
 * partition, queue, account, QOS or GPU model is a scheduler name, and any other value stays on one line.
 * The schema checks them when a pipeline is read; the job scripts check them again before writing a
 * directive (run/cluster/directive-values.ts), so the format owns what a valid value looks like.
 */

/** A partition, queue, account, QOS or GPU model: what every scheduler takes, never starting like an option. */
const NAME = "[A-Za-z0-9_][A-Za-z0-9_.:+@-]{0,63}";
/** One scheduler name. */
export const SCHEDULER_NAME = new RegExp(`^${NAME}$`);
/** Partitions may be listed (`short,long`: SLURM tries each). */
const SCHEDULER_NAMES = new RegExp(`^${NAME}(?:,${NAME}){0,15}$`);
const NAME_RULE = "letters, digits and _ . : + @ -, at most 64, starting with a letter, a digit or _";

/** C0 controls, DEL, and the characters some tools take for line ends. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/** The value as messages show it: quoted, control characters visible, at most 100 characters. */
export function shownValue(value: string): string {
  const quoted = JSON.stringify(value);
  return quoted.length > 100 ? `${quoted.slice(0, 97)}…"` : quoted;
}

/** Why a text cannot be a scheduler name (a list of names with `list`), or undefined when it can. */
export function schedulerNameProblem(value: string, options: { list?: boolean } = {}): string | undefined {
  if ((options.list ? SCHEDULER_NAMES : SCHEDULER_NAME).test(value)) return undefined;
  return `is not a scheduler name (${NAME_RULE}${options.list ? "; several separated by commas" : ""})`;
}

/** Why a text cannot stand in a directive line as it is (a control character), or undefined. */
export function controlCharacterProblem(value: string): string | undefined {
  return CONTROL.test(value) ? "holds a control character (a new line would start a directive or a shell line of its own)" : undefined;
}
