/**
 * A pipeline's graph drawn with React Flow in an automatic layered layout (being built: issue 17). The editor
 * draws the text's graph; the run page draws the same graph coloured by each rule's state.
 */
export interface DagNode {
  id: string;
  label: string;
  /** pending, running, completed, failed, skipped, would_run, would_skip; absent in the editor. */
  status?: string;
  jobs?: { total: number; completed: number; failed: number; running: number; skipped: number };
}

export interface DagEdge {
  source: string;
  target: string;
}

export function DagView(_props: { nodes: DagNode[]; edges: DagEdge[]; selected?: string; onSelect?: (id: string | undefined) => void }) {
  return null;
}
