import type { IconNode } from 'lucide';
import { h } from 'preact';

/**
 * One lucide icon (the console's icon set) as inline SVG. lucide-preact does not support Preact 11, so
 * this renders the vanilla package's icon data: each icon is a list of [tag, attributes] children of a
 * 24×24 stroked SVG. Pages take icons from `icons.ts`, the one list of those in use: lucide's package has
 * no side effects, so the build keeps only those. Decorative by default (hidden from screen readers, the
 * text beside it names the thing); give `label` when the icon stands alone.
 */
export function Icon({ node, label, class: className }: { node: IconNode; label?: string; class?: string }) {
  return (
    <svg class={className ? `icon ${className}` : 'icon'} viewBox="0 0 24 24" aria-hidden={label ? undefined : 'true'} role={label ? 'img' : undefined} aria-label={label} focusable="false">
      {node.map(([tag, attrs]) => h(tag, attrs as Record<string, string>))}
    </svg>
  );
}
