/**
 * A pipeline's graph drawn with React Flow in an automatic layered layout (elkjs, in a worker). The editor
 * draws the text's graph; the run page draws the same graph coloured by each rule's state, with job counts.
 * Large fan-outs (more than `aggregateAbove` sibling rules with the same neighbours) are drawn as one node
 * that expands on click; only the visible part of the graph is rendered.
 */
import { Background, Controls, Handle, MarkerType, MiniMap, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { memo, useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import { layoutGraph } from "./layout.js";
import { aggregateFanOuts, GROUP_PREFIX, type DagEdge, type DagNode } from "./drawn-graph.js";
import type { LayoutPositions } from "./layout-engine.js";
import "./dag.css";

/** The states the run page reports, in legend order, with the symbol that says it without colour. */
export const DAG_STATUSES: { status: string; label: string; icon: string }[] = [
  { status: "pending", label: "pending", icon: "○" },
  { status: "running", label: "running", icon: "◔" },
  { status: "completed", label: "completed", icon: "✓" },
  { status: "failed", label: "failed", icon: "✕" },
  { status: "skipped", label: "skipped", icon: "↷" },
  { status: "would_run", label: "would run", icon: "▷" },
  { status: "would_skip", label: "would skip", icon: "⇥" },
];
const STATUS_BY_NAME = new Map(DAG_STATUSES.map((entry) => [entry.status, entry]));

const NODE_WIDTH = 200;
const NODE_HEIGHT = 60;

interface RuleNodeData extends Record<string, unknown> {
  label: string;
  status?: string;
  jobs?: DagNode["jobs"];
  detail?: string;
  /** Rules drawn as this one node (an aggregated fan-out), else undefined. */
  members?: string[];
  selected: boolean;
  /** Edit mode: the handles start and end connections. */
  editable: boolean;
}

type RuleFlowNode = Node<RuleNodeData, "rule">;

// Memoised: React Flow re-renders node components on every viewport change otherwise, which is what makes
// a 500-node graph sluggish when panning.
const RuleNodeView = memo(function RuleNodeView({ data }: NodeProps<RuleFlowNode>) {
  const state = data.status ? STATUS_BY_NAME.get(data.status) : undefined;
  const jobs = data.jobs;
  const share = jobs && jobs.total > 0 ? Math.round((jobs.completed / jobs.total) * 100) : undefined;
  return (
    <div className={`dag-node${data.status ? ` dag-status-${data.status}` : ""}${data.members ? " dag-group" : ""}${data.selected ? " dag-selected" : ""}`}>
      <Handle type="target" position={Position.Top} isConnectable={data.editable && !data.members} />
      <div className="dag-node-title" title={data.label}>
        {state && (
          <span className="dag-node-icon" aria-hidden="true">
            {state.icon}
          </span>
        )}
        <span className="dag-node-label">{data.label}</span>
      </div>
      <div className="dag-node-meta">
        {data.members ? <span>{data.members.length} rules · expand</span> : state ? <span>{state.label}</span> : <span className="dag-node-detail">{data.detail ?? "rule"}</span>}
        {jobs && (
          <span className="dag-node-jobs">
            {jobs.completed}/{jobs.total}
            {jobs.failed > 0 ? ` · ${jobs.failed} failed` : ""}
          </span>
        )}
      </div>
      {share !== undefined && (
        <div className="dag-node-progress" aria-hidden="true">
          <span style={{ width: `${share}%` }} />
        </div>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={data.editable && !data.members} />
    </div>
  );
});

const NODE_TYPES = { rule: RuleNodeView };

/** The editing keys: on a rule, C (connect from it), F2 (rename), Delete (remove); on an edge, Delete (disconnect). Says whether it handled the key. */
function editKey(event: KeyboardEvent, target: HTMLElement, editing: DagEditHandlers): boolean {
  const removing = event.key === "Delete" || event.key === "Backspace";
  const edge = target.closest<SVGElement>(".react-flow__edge");
  if (edge) {
    const [from, to] = (edge.dataset.id ?? "").split(">");
    if (!removing || !from || !to) return false;
    editing.onDisconnect(from, to);
    return true;
  }
  const id = target.closest<HTMLElement>(".react-flow__node")?.dataset.id;
  if (!id || id.startsWith(GROUP_PREFIX)) return false;
  if (removing) editing.onRemove(id);
  else if (event.key === "F2") editing.onRename(id);
  else if (event.key === "c" || event.key === "C") editing.onConnectFrom(id);
  else return false;
  return true;
}

export interface DagViewProps {
  nodes: DagNode[];
  edges: DagEdge[];
  selected?: string;
  onSelect?: (id: string | undefined) => void;
  /** Sibling rules with the same neighbours drawn one by one up to this many; more become one expandable node (default 12). */
  aggregateAbove?: number;
  /** The graph's accessible name (default "Pipeline graph"). */
  label?: string;
  /** Called once a layout has been drawn, with the time it took (for measurements). */
  onLayout?: (info: { nodes: number; milliseconds: number }) => void;
  /** Edit mode: what dragging between handles and the editing keys on a node or edge ask for. */
  editing?: DagEditHandlers;
  /** Edit mode: the chosen edge (`source>target`), and where a click or focus on an edge reports it. */
  selectedEdge?: string;
  onSelectEdge?: (edge: DagEdge | undefined) => void;
}

/** What the graph asks its owner to do in edit mode (the owner sends the edits). */
export interface DagEditHandlers {
  /** `to` is to depend on `from` (a drag from `from`'s lower handle to `to`). */
  onConnect: (from: string, to: string) => void;
  /** Delete on a chosen edge. */
  onDisconnect: (from: string, to: string) => void;
  /** Delete on a focused rule. */
  onRemove: (id: string) => void;
  /** F2 on a focused rule. */
  onRename: (id: string) => void;
  /** C on a focused rule: pick the rule that is to depend on it. */
  onConnectFrom: (id: string) => void;
}

/** The id of an edge in the graph and in `selectedEdge`. */
export const edgeKey = (edge: DagEdge) => `${edge.source}>${edge.target}`;

/** The graph with zoom controls, a minimap for large graphs and, when nodes carry a status, a legend. */
export function DagView(props: DagViewProps) {
  return (
    <ReactFlowProvider>
      <DagCanvas {...props} />
    </ReactFlowProvider>
  );
}

function DagCanvas({ nodes, edges, selected, onSelect, aggregateAbove = 12, label = "Pipeline graph", onLayout, editing, selectedEdge, onSelectEdge }: DagViewProps) {
  const editable = editing !== undefined;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const drawn = useMemo(() => aggregateFanOuts(nodes, edges, aggregateAbove, expanded), [nodes, edges, aggregateAbove, expanded]);
  // The layout depends only on which nodes and edges there are, not on their states: a run's status updates
  // recolour the graph without moving it.
  const structureKey = useMemo(
    () => `${drawn.nodes.map((node) => node.id).join("\n")}\u0001${drawn.edges.map((edge) => `${edge.source}>${edge.target}`).join("\n")}`,
    [drawn],
  );
  const [positions, setPositions] = useState<{ key: string; at: LayoutPositions } | undefined>();
  const [layoutError, setLayoutError] = useState<string | undefined>();
  const flow = useReactFlow();
  // Read when the layout is asked and when it is done: the latest graph and callback, not dependencies.
  const layoutRequest = useEffectEvent(() => ({
    nodes: drawn.nodes.map((node) => ({ id: node.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: drawn.edges,
  }));
  const laidOut = useEffectEvent((timing: { nodes: number; milliseconds: number }) => onLayout?.(timing));

  useEffect(() => {
    let current = true;
    const started = performance.now();
    const request = layoutRequest();
    layoutGraph(request).then(
      (at) => {
        if (!current) return;
        setLayoutError(undefined);
        setPositions({ key: structureKey, at });
        laidOut({ nodes: request.nodes.length, milliseconds: Math.round(performance.now() - started) });
      },
      (error: unknown) => current && setLayoutError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
    // The graph is laid out again exactly when its structure changes (not its states).
  }, [structureKey]);

  const flowNodes = useMemo<RuleFlowNode[]>(() => {
    if (!positions) return [];
    return drawn.nodes.map((node) => {
      const members = drawn.groups.get(node.id);
      return {
        id: node.id,
        type: "rule",
        position: positions.at[node.id] ?? { x: 0, y: 0 },
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        ariaLabel: members
          ? `${members.length} rules from ${node.label}${node.status ? `, ${node.status.replace("_", " ")}` : ""}; press Enter to expand`
          : `Rule ${node.label}${node.status ? `, ${node.status.replace("_", " ")}` : ""}${node.jobs ? `, ${node.jobs.completed} of ${node.jobs.total} jobs done` : ""}${editable ? "; C connects it to a dependent rule, F2 renames, Delete removes" : ""}`,
        domAttributes: editable && !members ? { "aria-keyshortcuts": "C F2 Delete" } : undefined,
        data: { label: node.label, status: node.status, jobs: node.jobs, detail: node.detail, members, selected: node.id === selected, editable },
      };
    });
  }, [drawn, positions, selected, editable]);

  const flowEdges = useMemo<Edge[]>(
    () =>
      drawn.edges.map((edge) => ({
        id: edgeKey(edge),
        source: edge.source,
        target: edge.target,
        className: [edge.source === selected || edge.target === selected ? "dag-edge-selected" : "", editable && edgeKey(edge) === selectedEdge ? "dag-edge-chosen" : ""].join(" ").trim() || undefined,
        ariaLabel: `${edge.target} depends on ${edge.source}${editable ? "; Delete disconnects" : ""}`,
        domAttributes: editable ? { "aria-keyshortcuts": "Delete" } : undefined,
        // Direction without relying on top-to-bottom reading: an arrow at the dependent rule.
        markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14, color: edge.source === selected || edge.target === selected ? "var(--accent)" : "var(--muted)" },
      })),
    [drawn, selected, editable, selectedEdge],
  );

  // A new shape of graph is brought into view once it is placed: all of it when it fits at a readable zoom,
  // else its first levels (the minimap shows the rest); after a fan-out is expanded, its rules.
  const container = useRef<HTMLDivElement>(null);
  const fittedKey = useRef<string | undefined>(undefined);
  const focus = useRef<string[] | undefined>(undefined);
  useEffect(() => {
    if (!positions || fittedKey.current === positions.key) return;
    fittedKey.current = positions.key;
    const frame = requestAnimationFrame(() => {
      const entries = Object.entries(positions.at);
      const focused = focus.current?.filter((id) => positions.at[id]);
      focus.current = undefined;
      if (focused && focused.length > 0) {
        // A fan-out of a hundred rules is one very wide row: show its first rules at a readable size.
        void flow.fitView({ nodes: focused.slice(0, 4).map((id) => ({ id })), padding: 0.1, maxZoom: 1, minZoom: 0.5 });
        return;
      }
      const width = Math.max(...entries.map(([, at]) => at.x)) + NODE_WIDTH;
      const height = Math.max(...entries.map(([, at]) => at.y)) + NODE_HEIGHT;
      const pane = container.current?.getBoundingClientRect();
      const zoomToFit = pane ? Math.min(pane.width / width, pane.height / height) : 1;
      if (zoomToFit >= 0.45 || entries.length === 0) {
        void flow.fitView({ padding: 0.15, maxZoom: 1.2, minZoom: 0.05 });
        return;
      }
      const levels = [...new Set(entries.map(([, at]) => at.y))].sort((a, b) => a - b).slice(0, 4);
      const top = entries.filter(([, at]) => at.y <= levels.at(-1)!).slice(0, 40);
      void flow.fitView({ nodes: top.map(([id]) => ({ id })), padding: 0.1, maxZoom: 1, minZoom: 0.3 });
    });
    return () => cancelAnimationFrame(frame);
  }, [positions, flow]);

  const activate = useCallback(
    (id: string) => {
      if (id.startsWith(GROUP_PREFIX)) {
        focus.current = drawn.groups.get(id);
        setExpanded((previous) => new Set([...previous, id]));
        return;
      }
      onSelect?.(id === selected ? undefined : id);
    },
    [onSelect, selected, drawn],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (editing && !event.ctrlKey && !event.metaKey && !event.altKey && editKey(event, target, editing)) {
      event.preventDefault();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = target.closest<HTMLElement>(".react-flow__node");
    const id = node?.dataset.id;
    if (!id) return;
    event.preventDefault();
    activate(id);
  };
  // An edge is chosen by clicking it or by moving the keyboard focus onto it.
  const chooseEdge = (id: string | undefined) => onSelectEdge?.(id === undefined ? undefined : drawn.edges.find((edge) => edgeKey(edge) === id));
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const edge = (event.target as Element).closest<SVGElement>(".react-flow__edge");
    if (editable && edge?.dataset.id) chooseEdge(edge.dataset.id);
  };

  const statuses = useMemo(() => new Set(nodes.map((node) => node.status).filter(Boolean)), [nodes]);
  const collapsed = drawn.groups.size;

  return (
    <div className={`dag-view${editable ? " dag-editing" : ""}`} ref={container} role="region" aria-label={label} onKeyDown={onKeyDown} onFocus={onFocus}>
      {nodes.length === 0 ? (
        <p className="dag-empty">No rules to draw yet: add a [[rules]] table with a name.</p>
      ) : (
        <ReactFlow<RuleFlowNode>
          nodes={flowNodes}
          edges={flowEdges}
          nodeTypes={NODE_TYPES}
          onNodeClick={(_event, node) => activate(node.id)}
          onPaneClick={() => {
            if (selected !== undefined) onSelect?.(undefined);
            if (selectedEdge !== undefined) chooseEdge(undefined);
          }}
          onEdgeClick={editable ? (_event, edge) => chooseEdge(edge.id) : undefined}
          onConnect={editing ? (connection) => connection.source !== connection.target && editing.onConnect(connection.source, connection.target) : undefined}
          nodesDraggable={false}
          nodesConnectable={editable}
          elementsSelectable={false}
          deleteKeyCode={null}
          nodesFocusable
          edgesFocusable={editable}
          onlyRenderVisibleElements
          minZoom={0.05}
          maxZoom={2}
          proOptions={{ hideAttribution: true }}
          aria-label={label}
        >
          <Background gap={20} size={1} />
          <Controls showInteractive={false} position="bottom-right" />
          {drawn.nodes.length > 40 && <MiniMap pannable zoomable position="top-right" ariaLabel={`${label}: overview`} nodeClassName={(node) => `dag-mini dag-mini-${String((node.data as RuleNodeData).status ?? "none")}`} />}
        </ReactFlow>
      )}
      {!positions && nodes.length > 0 && !layoutError && (
        <p className="dag-placing" role="status">
          Placing {drawn.nodes.length} nodes…
        </p>
      )}
      {layoutError && (
        <p className="dag-placing" role="alert">
          The graph could not be placed: {layoutError}
        </p>
      )}
      {(statuses.size > 0 || collapsed > 0 || expanded.size > 0) && (
        <div className="dag-legend" aria-label="Legend">
          {statuses.size > 0 &&
            DAG_STATUSES.map((entry) => (
              <span key={entry.status} className={`dag-legend-item dag-status-${entry.status}`}>
                <span aria-hidden="true">{entry.icon}</span> {entry.label}
              </span>
            ))}
          {collapsed > 0 && <span className="dag-legend-note">{collapsed} large fan-outs folded (click to expand)</span>}
          {expanded.size > 0 && (
            <button type="button" className="dag-legend-button" onClick={() => setExpanded(new Set())}>
              Fold fan-outs again
            </button>
          )}
        </div>
      )}
    </div>
  );
}
