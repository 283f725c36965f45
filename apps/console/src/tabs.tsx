import { href } from './router.js';
import { Icon } from './icon.js';
import { NAV_ICONS } from './nav-icons.js';

export interface Tab {
  path: string;
  label: string;
}

/** The tab a route names, the first one when it names none of them. */
export const tabOf = (tabs: Tab[], path: string | undefined): Tab => tabs.find((t) => t.path === path) ?? tabs[0]!;

/** Links to a bot's pages, the current one marked for screen readers; `base` is the route above them. */
export function NavLinks({ label, class: className, base, tabs, current }: { label: string; class: string; base: string[]; tabs: Tab[]; current: string }) {
  return (
    <nav aria-label={label} class={className}>
      <ul>
        {tabs.map((t) => (
          <li>
            <a href={href(...base, t.path)} aria-current={t.path === current ? 'page' : undefined}>
              {NAV_ICONS[t.path] && <Icon node={NAV_ICONS[t.path]!} />}
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A section's heading, naming its current sub-page, and the tabs to the others. */
export function Tabs({ title, base, tabs, current }: { title: string; base: string[]; tabs: Tab[]; current: Tab }) {
  return (
    <>
      <h1>
        {title} · {current.label}
      </h1>
      <NavLinks label={title} class="tabs" base={base} tabs={tabs} current={current.path} />
    </>
  );
}
