/**
 * The graph as DagView draws it: its rules and dependencies, and large fan-outs (more than a threshold of
 * sibling rules with the same neighbours) folded into one node each, whose state is its most pressing
 * member's. Pure, so the folding can be read and tested without a browser.
 */

/** A rule as the graph draws it. */
export interface DagNode {
  id: string;
  label: string;
  /** pending, running, completed, failed, skipped, would_run, would_skip; absent in the editor. */
  status?: string;
  jobs?: { total: number; completed: number; failed: number; running: number; skipped: number };
  /** A short line under the name when there is no status (the editor: threads and environment). */
  detail?: string;
}

/** A dependency: `target` reads what `source` writes. */
export interface DagEdge {
  source: string;
  target: string;
}

/** The id prefix of a folded fan-out's node. */
export const GROUP_PREFIX = "group:";

/** Folds each set of more than `threshold` rules that share the same inputs and dependents into one node. */
export function aggregateFanOuts(nodes: DagNode[], edges: DagEdge[], threshold: number, expanded: ReadonlySet<string>) {
  const parents = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  for (const edge of edges) {
    (parents.get(edge.target) ?? parents.set(edge.target, []).get(edge.target)!).push(edge.source);
    (children.get(edge.source) ?? children.set(edge.source, []).get(edge.source)!).push(edge.target);
  }
  const bySignature = new Map<string, DagNode[]>();
  for (const node of nodes) {
    const up = [...(parents.get(node.id) ?? [])].sort().join(",");
    const down = [...(children.get(node.id) ?? [])].sort().join(",");
    // Rules with no neighbours at all are not a fan-out: keep them apart.
    if (up === "" && down === "") continue;
    const signature = `${up}|${down}`;
    (bySignature.get(signature) ?? bySignature.set(signature, []).get(signature)!).push(node);
  }
  const groupOf = new Map<string, string>();
  const groups: { id: string; members: DagNode[] }[] = [];
  for (const members of bySignature.values()) {
    if (members.length <= threshold) continue;
    const id = `${GROUP_PREFIX}${members[0]!.id}`;
    if (expanded.has(id)) continue;
    groups.push({ id, members });
    for (const member of members) groupOf.set(member.id, id);
  }
  if (groups.length === 0) return { nodes, edges, groups: new Map<string, string[]>() };
  const drawn: DagNode[] = nodes.filter((node) => !groupOf.has(node.id));
  const members = new Map<string, string[]>();
  for (const group of groups) {
    members.set(
      group.id,
      group.members.map((member) => member.id),
    );
    drawn.push({ id: group.id, label: `${group.members[0]!.label} … ${group.members.at(-1)!.label}`, ...summarise(group.members) });
  }
  const seen = new Set<string>();
  const drawnEdges: DagEdge[] = [];
  for (const edge of edges) {
    const source = groupOf.get(edge.source) ?? edge.source;
    const target = groupOf.get(edge.target) ?? edge.target;
    const key = `${source}\u0000${target}`;
    if (source === target || seen.has(key)) continue;
    seen.add(key);
    drawnEdges.push({ source, target });
  }
  return { nodes: drawn, edges: drawnEdges, groups: members };
}

/** A group's state is its most pressing member's (failed, then running, …); its job counts are the sum. */
function summarise(members: DagNode[]): Pick<DagNode, "status" | "jobs"> {
  const order = ["failed", "running", "pending", "would_run", "completed", "would_skip", "skipped"];
  const statuses = new Set(members.map((member) => member.status).filter((status): status is string => status !== undefined));
  const status = order.find((candidate) => statuses.has(candidate)) ?? [...statuses][0];
  const withJobs = members.filter((member) => member.jobs);
  const jobs =
    withJobs.length === 0
      ? undefined
      : withJobs.reduce(
          (sum, member) => ({
            total: sum.total + member.jobs!.total,
            completed: sum.completed + member.jobs!.completed,
            failed: sum.failed + member.jobs!.failed,
            running: sum.running + member.jobs!.running,
            skipped: sum.skipped + member.jobs!.skipped,
          }),
          { total: 0, completed: 0, failed: 0, running: 0, skipped: 0 },
        );
  return { status, jobs };
}
