/**
 * Fan-outs over empty lists, and the one set of rules validate and expansion share about them.
 *
 * An empty list switches a branch off on purpose: a scatter, transform, `[[values]]` table or sample source
 * with nothing in it expands its rule to no jobs, and an `expand_inputs` variable over nothing adds no
 * inputs. Each case is a W027 warning at the rule (and the key that is empty). The lists themselves are
 * resolved by the same functions in both places (resolveValuesTables, scatterValues, transformValues,
 * checkGatherTarget), so `validate` reports exactly the errors and warnings `dry-run` and `run` meet.
 */
import { EngineError, makeFinding, type Finding } from "../findings.js";
import type { Pipeline, Rule } from "../format/model.js";
import type { ValuePath } from "../format/source-positions.js";
import { expandInputValues, instanceSourceOf, resolveValuesTables, type InstanceSource, type ResolvedValues } from "./instances.js";
import { checkGatherTarget, scatterValues, transformValues } from "./split.js";

/** The warning code for a rule or input switched off by an empty list. */
export const SWITCHED_OFF = "W027";

/** A W027 warning at a field of a rule (or at the rule itself, for an empty field path). */
function switchedOff(rule: Rule, message: string, field: ValuePath, suggestion: string): Finding {
  return makeFinding(SWITCHED_OFF, "warning", message, { rule: rule.name, suggestion, at: rule.origin.source.locate([...rule.origin.path, ...field]) });
}

/** W027 findings for one rule, given the scatter and split values expansion resolved for it. */
export function emptyFanOutFindings(pipeline: Pipeline, source: InstanceSource, rule: Rule, scatter: string[] | null, split: string[] | null): Finding[] {
  const fanOut = source.fanOutOf(rule);
  if (fanOut.kind !== "single" && source.countOf(fanOut) === 0) {
    const because = emptySourceOf(pipeline, fanOut.kind, fanOut.active);
    return [switchedOff(rule, `rule '${rule.name}' expands to no jobs: ${because}`, [], "fill the list to switch the rule on; nothing is wrong if it is off on purpose")];
  }
  if (scatter && scatter.length === 0) return [emptyScatter(rule)];
  if (split && split.length === 0) return [emptySplit(rule)];
  const findings: Finding[] = [];
  rule.expand_inputs.forEach((entry, index) => {
    const empty = Object.entries(entry.variables).find(([, spec]) => expandInputValues(spec, pipeline.config).length === 0);
    if (!empty) return;
    findings.push(
      switchedOff(rule, `expand_inputs of rule '${rule.name}' ranges {${empty[0]}} over ${empty[1]}, which is empty: "${entry.pattern}" adds no inputs`, ["expand_inputs", index], "fill the list to add these inputs; nothing is wrong if it is empty on purpose"),
    );
  });
  return findings;
}

function emptySourceOf(pipeline: Pipeline, kind: "pair" | "group" | "values", active: ResolvedValues[]): string {
  const emptyTable = active.find((table) => table.values.length === 0);
  if (emptyTable) {
    const from = pipeline.values.find((table) => table.name === emptyTable.name)?.values_from;
    return `[[values]] table '${emptyTable.name}' has no values${from ? ` (${from} is empty)` : ""}`;
  }
  const workflow = pipeline.workflow;
  if (kind === "pair") {
    const named = [workflow.pairs_file && `pairs_file '${workflow.pairs_file}'`, workflow.pairs_pattern && `pairs_pattern '${workflow.pairs_pattern}'`].filter(Boolean);
    return `its pair wildcards range over no pairs (${named.length > 0 ? `${named.join(" and ")} ${named.length === 1 ? "holds" : "hold"} none` : "every pair was filtered out"})`;
  }
  const named = [workflow.sample_groups_file && `sample_groups_file '${workflow.sample_groups_file}'`, workflow.sample_pattern && `sample_pattern '${workflow.sample_pattern}'`].filter(Boolean);
  return `its {sample}/{group} wildcards range over no samples (${named.length > 0 ? `${named.join(" and ")} ${named.length === 1 ? "holds" : "hold"} none` : "the sample groups are empty or were filtered out"})`;
}

function emptyScatter(rule: Rule): Finding {
  const scatter = rule.scatter!;
  const list = scatter.values ? "values = []" : `${scatter.values_from} is empty`;
  const gather = scatter.gather;
  const off = scatter.values ? 'when = "false"' : `when = "${scatter.values_from!.startsWith("config.") ? scatter.values_from : `config.${scatter.values_from}`}"`;
  return switchedOff(
    rule,
    `scatter of rule '${rule.name}' has no values (${list}): the rule expands to no jobs${gather ? `, and its gather rule '${gather}' receives no scattered inputs` : ""}`,
    ["scatter", scatter.values ? "values" : "values_from"],
    gather ? `to switch '${gather}' off as well, give it ${off}; fill the list to switch the branch on` : "fill the list to switch the rule on; nothing is wrong if it is off on purpose",
  );
}

function emptySplit(rule: Rule): Finding {
  const split = rule.transform!.split;
  const list =
    split.values !== undefined ? "values = []" : split.values_from !== undefined ? `${split.values_from} is empty` : split.n !== undefined ? `n = ${split.n} chunks` : `glob "${split.glob}" matches no files`;
  return switchedOff(rule, `transform of rule '${rule.name}' splits into nothing (${list}): the rule expands to no jobs, neither map nor combine`, ["transform", "split"], "fill the list (or put the files in place) to switch the rule on");
}

/**
 * What `validate` reports about fan-outs: every error expansion would stop at (E005 for a `values_from`
 * naming no config key, EXPAND_ERROR otherwise) and every W027, each at its rule and line.
 */
export function fanOutFindings(pipeline: Pipeline): Finding[] {
  const findings: Finding[] = [];
  const attempt = <T>(work: () => T): T | null => {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      findings.push(error.finding);
      return null;
    }
  };
  const tables = attempt(() => resolveValuesTables(pipeline)) ?? [];
  const source = instanceSourceOf(pipeline, tables);
  const ruleNames = new Set(pipeline.rules.map((rule) => rule.name));
  for (const rule of pipeline.rules) {
    attempt(() => checkGatherTarget(rule, ruleNames));
    const scatter = rule.scatter ? attempt(() => scatterValues(rule, pipeline)) : null;
    const split = rule.transform ? attempt(() => transformValues(rule, pipeline)) : null;
    if ((rule.scatter && !scatter) || (rule.transform && !split)) continue;
    findings.push(...emptyFanOutFindings(pipeline, source, rule, scatter, split));
  }
  return findings;
}
