// The journey drawn with @xyflow/react (through preact/compat): drag a node kind from the palette onto the
// canvas to add it, drag from an exit handle to a node to connect, drag nodes to move them.
import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  applyNodeChanges,
  getViewportForBounds,
  useReactFlow,
  useStore,
  useUpdateNodeInternals,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { FunctionComponent } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Icon } from '../../icon.js';
import { TriangleAlert } from '../../icons.js';
import { type BotNode, KIND_LABELS, type NodeKind } from './definition.js';
import type { FlowEdge, FlowNode, Point } from './graph.js';

// xyflow's components are typed for React; through preact/compat they are Preact components.
const Flow = ReactFlow as unknown as FunctionComponent<Record<string, unknown>>;
const Bg = Background as unknown as FunctionComponent<Record<string, unknown>>;
const Ctl = Controls as unknown as FunctionComponent<Record<string, unknown>>;
const H = Handle as unknown as FunctionComponent<Record<string, unknown>>;
const Provider = ReactFlowProvider as unknown as FunctionComponent<Record<string, unknown>>;

export const DRAG_TYPE = 'application/x-bot-node-kind';
const MIN_ZOOM = 0.2;

function summary(node: BotNode): string {
  const t = (node.text ?? node.url ?? node.journey ?? node.label ?? '') as string;
  return t.length > 60 ? t.slice(0, 57) + '…' : t;
}

function BotNodeView({ data, selected }: { data: FlowNode['data']; selected: boolean }) {
  const { node, exits, start, errors, warnings } = data;
  const problems = errors.length ? ' has-errors' : warnings.length ? ' has-warnings' : '';
  return (
    <div class={`flow-node kind-${node.kind}${problems}${selected ? ' selected' : ''}`} data-testid={`flow-node-${node.id}`}>
      <H type="target" position={Position.Top} />
      <div class="flow-node-head">
        <span class="flow-kind">{KIND_LABELS[node.kind]}</span>
        {start && <span class="badge">start</span>}
      </div>
      <strong class="flow-id">{node.label || node.id}</strong>
      <div class="flow-summary">{summary(node)}</div>
      {errors.length > 0 && (
        <div class="flow-errors" data-testid={`node-errors-${node.id}`}>
          {errors.map((e) => (
            <div>{e}</div>
          ))}
        </div>
      )}
      {/* Named as warnings in words, not by colour alone; the whole text is in the node's form and the list above. */}
      {warnings.length > 0 && (
        <div class="flow-warnings" data-testid={`node-warnings-${node.id}`}>
          {warnings.map((w) => (
            <div class="flow-warning">
              <Icon node={TriangleAlert} /> <span>Warning: {w}</span>
            </div>
          ))}
        </div>
      )}
      <div class="flow-exits">
        {exits.map((label, i) => (
          <span class="flow-exit" style={{ left: `${((i + 1) * 100) / (exits.length + 1)}%` }}>
            {label}
            <H type="source" id={label} position={Position.Bottom} />
          </span>
        ))}
      </div>
    </div>
  );
}

const nodeTypes = { bot: BotNodeView };

/** Ids of the nodes xyflow has a size for but no handle positions. */
const handlesLost = (s: { nodeLookup: Map<string, { id: string; hidden?: boolean; measured?: { width?: number }; internals: { handleBounds?: unknown } }> }) =>
  Array.from(s.nodeLookup.values())
    .filter((n) => !n.hidden && n.measured?.width && !n.internals.handleBounds)
    .map((n) => n.id)
    .join(' ');

/**
 * xyflow keeps a node's handle positions only while the node passed in carries its measured size. Under
 * preact/compat, whose effects run after paint, a nodes update computed before a measurement can reach the
 * store after it: the handles are dropped, the size (now known again) never changes, and the node's edges
 * are never drawn. Such nodes are measured again.
 */
function KeepHandlesMeasured() {
  const lost = (useStore as (select: typeof handlesLost) => string)(handlesLost);
  const remeasure = useUpdateNodeInternals();
  useEffect(() => {
    if (lost) remeasure(lost.split(' '));
  }, [lost]);
  return null;
}
const KeepHandles = KeepHandlesMeasured as unknown as FunctionComponent;

/** The box around every shown node and the canvas's size ("x y width height canvasWidth canvasHeight"), or "" while a node is not measured yet. */
const extentOf = (s: { width: number; height: number; nodeLookup: Map<string, { hidden?: boolean; measured?: { width?: number; height?: number }; internals: { positionAbsolute: Point } }> }) => {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of s.nodeLookup.values()) {
    if (n.hidden) continue;
    const { width, height } = n.measured ?? {};
    if (!width || !height) return '';
    const { x, y } = n.internals.positionAbsolute;
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x + width), Math.max(bottom, y + height)];
  }
  return left === Infinity || !s.width || !s.height ? '' : [left, top, right - left, bottom - top, s.width, s.height].join(' ');
};
const lastDrag = new Map<string, Point>();

interface CanvasProps {
  nodes: FlowNode[];
  edges: FlowEdge[];
  onMove: (id: string, p: Point) => void;
  onSelect: (id: string | null) => void;
  onConnect: (from: string, label: string, to: string) => void;
  onDisconnect: (from: string, label: string) => void;
  onDelete: (id: string) => void;
  onDropKind: (kind: NodeKind, at: Point) => void;
  /** A node to select and bring into view (a try-it step clicked); `seq` changes on each request. */
  focus?: { id: string; seq: number } | null;
  /**
   * Names a first view (a journey shown, or laid out again): while it is set, and until the person touches
   * the canvas, the view fits every node whenever their box or the canvas's size changes; null stops that.
   */
  fitKey?: string | null;
}

function Canvas(props: CanvasProps) {
  const flow = useReactFlow();
  // xyflow measures nodes and tracks dragging and selection through onNodesChange: the canvas keeps its own
  // copy of the nodes for that, taken again from the definition whenever it changes.
  const [nodes, setNodes] = useState<FlowNode[]>(props.nodes);
  useEffect(() => {
    setNodes((prev) => {
      const old = new Map(prev.map((n) => [n.id, n as FlowNode & { measured?: unknown; selected?: boolean }]));
      return props.nodes.map((n) => ({ ...n, measured: old.get(n.id)?.measured, selected: old.get(n.id)?.selected }));
    });
  }, [props.nodes]);
  // xyflow's own fitView prop fits once, as soon as the first nodes are measured: before elkjs has placed
  // them (the layout arrives a moment later) and before the checks' errors and warnings make some taller,
  // so a layout wider or taller than that first fit stayed partly outside the canvas (at 390 px, a branching one).
  const extent = (useStore as (select: typeof extentOf) => string)(extentOf);
  const touched = useRef<string | null | undefined>(null);
  const fitting = !!props.fitKey && touched.current !== props.fitKey;
  useEffect(() => {
    if (!fitting || !extent) return;
    const [x, y, width, height, canvasWidth, canvasHeight] = extent.split(' ').map(Number) as [number, number, number, number, number, number];
    void flow.setViewport(getViewportForBounds({ x, y, width, height }, canvasWidth, canvasHeight, MIN_ZOOM, 1, 0.1));
  }, [fitting, extent]);
  /** The person's own view (a pan, a zoom, a drag, a drop, a key) is never moved by the first view's fitting. */
  const touch = () => (touched.current = props.fitKey);
  useEffect(() => {
    const id = props.focus?.id;
    if (!id) return;
    touch();
    setNodes((ns) => ns.map((n) => ({ ...n, selected: n.id === id })));
    void flow.fitView({ nodes: [{ id }], maxZoom: 1, duration: 200 });
  }, [props.focus?.seq]);
  const edges = useMemo(() => props.edges.map((e) => ({ ...e, type: 'smoothstep', markerEnd: { type: 'arrowclosed' } })), [props.edges]);
  return (
    <div
      class="flow-canvas"
      data-testid="flow-canvas"
      onPointerDownCapture={touch}
      onWheelCapture={touch}
      onKeyDownCapture={touch}
      onDragOver={(e) => {
        if (e.dataTransfer?.types.includes(DRAG_TYPE)) {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
        }
      }}
      onDrop={(e) => {
        const kind = e.dataTransfer?.getData(DRAG_TYPE) as NodeKind | undefined;
        if (!kind) return;
        e.preventDefault();
        touch();
        props.onDropKind(kind, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
      }}
    >
      <Flow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        minZoom={MIN_ZOOM}
        deleteKeyCode={null}
        proOptions={{ hideAttribution: true }}
        onNodesChange={(changes: NodeChange[]) => {
          setNodes((ns) => applyNodeChanges(changes, ns as never) as unknown as FlowNode[]);
          for (const c of changes) {
            // Kept in the definition's positions when a drag ends (not at every frame of it).
            if (c.type === 'position' && c.position && c.dragging === false) props.onMove(c.id, c.position);
            if (c.type === 'position' && c.position && c.dragging) lastDrag.set(c.id, c.position);
            if (c.type === 'position' && c.dragging === false && !c.position && lastDrag.has(c.id)) props.onMove(c.id, lastDrag.get(c.id)!);
            if (c.type === 'select' && c.selected) props.onSelect(c.id);
          }
        }}
        onEdgesChange={(changes: EdgeChange[]) => {
          for (const c of changes) {
            if (c.type !== 'remove') continue;
            const edge = props.edges.find((e) => e.id === c.id);
            if (edge) props.onDisconnect(edge.source, edge.sourceHandle);
          }
        }}
        onConnect={(c: Connection) => c.source && c.target && props.onConnect(c.source, c.sourceHandle ?? 'next', c.target)}
        onPaneClick={() => props.onSelect(null)}
      >
        <Bg />
        <Ctl showInteractive={false} />
        <KeepHandles />
      </Flow>
    </div>
  );
}

export function FlowCanvas(props: CanvasProps) {
  return (
    <Provider>
      <Canvas {...props} />
    </Provider>
  );
}
