// An ESLint rule for the repo's import boundaries (docs/architecture.md): it resolves each import
// to a repo path itself (relative specifiers, `@platform/<lib>` aliases) instead of through a module
// resolver, so it needs no knowledge of NodeNext's `.js` suffixes on `.ts` files.
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Where a repo path sits: { kind: 'app' | 'lib' | 'other', name, rest } (rest: the path inside its src/). */
function place(file) {
  const rel = path.relative(ROOT, file).split(path.sep);
  if ((rel[0] === 'apps' || rel[0] === 'libs') && rel.length > 2) {
    return { kind: rel[0] === 'apps' ? 'app' : 'lib', name: rel[1], rest: rel[2] === 'src' ? rel.slice(3) : null };
  }
  return { kind: 'other' };
}

/** The repo path an import names, or null for a package. */
function target(importer, source) {
  if (source.startsWith('.')) return path.resolve(path.dirname(importer), source);
  const alias = /^@platform\/([^/]+)(?:\/(.*))?$/.exec(source);
  if (alias) return path.join(ROOT, 'libs', alias[1], 'src', alias[2] ?? 'index.ts');
  return null;
}

/** Why `from` may not import `to`, or null when it may. */
function violation(from, to) {
  if (from.kind === 'lib' && to.kind === 'app') return `a lib never imports an app (libs/${from.name} → apps/${to.name})`;
  if (from.kind !== 'app') return null;
  if (to.kind === 'app' && to.name !== from.name) return `an app never imports another app (apps/${from.name} → apps/${to.name}); share it through libs/contracts`;
  if (from.name === 'console' && to.kind === 'lib' && to.name !== 'contracts') {
    return `the console takes its view types from libs/contracts only, not libs/${to.name}`;
  }
  const inHttp = from.rest?.[0] === 'http' && from.rest.length > 1;
  const toFeature = to.kind === 'app' && to.name === from.name && to.rest && to.rest.length > 1 && to.rest[0] !== 'http';
  if (inHttp && toFeature) return `apps/${from.name}/src/http/ is the HTTP plumbing every feature uses: it never imports a feature folder (${to.rest[0]}/)`;
  return null;
}

export const importBoundaries = {
  meta: { type: 'problem', docs: { description: 'Keeps imports within the boundaries docs/architecture.md sets' }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = place(file);
    if (from.kind === 'other') return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const resolved = target(file, source.value);
      if (!resolved) return;
      const message = violation(from, place(resolved));
      if (message) context.report({ node: source, message });
    };
    return { ImportDeclaration: check, ExportAllDeclaration: check, ExportNamedDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'import-boundaries': importBoundaries } };
