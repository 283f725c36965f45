// What changed between two definitions, in words, for the version history ("node ask changed: text").
import type { BotNode, Definition, Journey } from './definition.js';
import { labelOf } from './graph.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of a node whose values differ, the id aside. */
function changedFields(a: BotNode, b: BotNode): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'id');
  return keys.filter((k) => !same(a[k], b[k])).sort();
}

function journeyChanges(a: Journey, b: Journey): string[] {
  const out: string[] = [];
  const where = `journey ${b.slug}`;
  if (a.start !== b.start) out.push(`${where}: starts at ${b.start} (was ${a.start})`);
  if ((a.name ?? '') !== (b.name ?? '')) out.push(`${where}: renamed "${b.name ?? ''}"`);
  const before = new Map(a.nodes.map((n) => [n.id, n]));
  const after = new Map(b.nodes.map((n) => [n.id, n]));
  for (const [id, n] of after) {
    const old = before.get(id);
    if (!old) out.push(`${where}: node ${id} (${n.kind}) added`);
    else if (!same(old, n)) out.push(`${where}: node ${id} changed: ${changedFields(old, n).join(', ')}`);
  }
  for (const [id, n] of before) if (!after.has(id)) out.push(`${where}: node ${id} (${n.kind}) removed`);
  const key = (e: { from: string; to: string; on?: string }) => `${e.from} → ${e.to} (${labelOf(e)})`;
  const edgesBefore = new Set(a.edges.map(key));
  const edgesAfter = new Set(b.edges.map(key));
  for (const e of edgesAfter) if (!edgesBefore.has(e)) out.push(`${where}: edge ${e} added`);
  for (const e of edgesBefore) if (!edgesAfter.has(e)) out.push(`${where}: edge ${e} removed`);
  return out;
}

/** Every change from `a` to `b`, one line each; empty when they are the same. */
export function diffDefinitions(a: Definition, b: Definition): string[] {
  const out: string[] = [];
  if (a.startJourney !== b.startJourney) out.push(`starts with journey ${b.startJourney} (was ${a.startJourney})`);
  const varsBefore = new Map(a.variables.map((v) => [v.name, v]));
  const varsAfter = new Map(b.variables.map((v) => [v.name, v]));
  for (const [name, v] of varsAfter) {
    const old = varsBefore.get(name);
    if (!old) out.push(`variable ${name} (${v.type}) added`);
    else if (!same(old, v)) out.push(`variable ${name} changed`);
  }
  for (const name of varsBefore.keys()) if (!varsAfter.has(name)) out.push(`variable ${name} removed`);
  const jBefore = new Map(a.journeys.map((j) => [j.slug, j]));
  const jAfter = new Map(b.journeys.map((j) => [j.slug, j]));
  for (const [slug, j] of jAfter) {
    const old = jBefore.get(slug);
    if (!old) out.push(`journey ${slug} added (${j.nodes.length} ${j.nodes.length === 1 ? 'node' : 'nodes'})`);
    else out.push(...journeyChanges(old, j));
  }
  for (const slug of jBefore.keys()) if (!jAfter.has(slug)) out.push(`journey ${slug} removed`);
  if (!same(a.settings ?? {}, b.settings ?? {})) out.push('settings changed');
  return out;
}
