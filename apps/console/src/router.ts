import { useEffect, useState } from 'preact/hooks';

/** Hash routes (#/bots/<id>/api-keys): the gateway serves one index.html, and a reload keeps the page. */
export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const on = () => setParts(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parts;
}

export const href = (...parts: string[]) => '#/' + parts.map(encodeURIComponent).join('/');
export const go = (...parts: string[]) => {
  location.hash = href(...parts).slice(1);
};

/**
 * A path-style URL (`/console/settings/api-keys`, `/console/bots/<id>/messages`: a link someone typed or
 * shared; the gateway answers index.html for it) becomes the hash route it names. A hash already there wins.
 */
export function adoptPath(): void {
  const rest = location.pathname.replace(/^\/console\/?/, '').replace(/\/+$/, '');
  if (!rest) return;
  history.replaceState(null, '', `/console/${location.hash || `#/${rest}`}`);
}
