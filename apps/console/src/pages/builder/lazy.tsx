// The builder's entry in the console's first load: only this stub. The builder itself (xyflow, elkjs and
// their styles) is a chunk of its own, fetched when the builder is opened (docs/console.md#size).
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Bot } from '../../api.js';
import { Spinner } from '../../ui.js';

let loaded: FunctionComponent<{ bot: Bot; userId: string }> | null = null;

export function BuilderPage({ bot, userId }: { bot: Bot; userId: string }) {
  const [page, setPage] = useState<FunctionComponent<{ bot: Bot; userId: string }> | null>(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (loaded) return;
    import('./builder.js').then(
      (m) => setPage(() => (loaded = m.default)),
      () => setFailed(true),
    );
  }, []);
  if (failed)
    return (
      <div class="notice error" role="alert">
        The builder could not be loaded; check your connection and reload the page.
      </div>
    );
  const Page = page;
  return Page ? <Page bot={bot} userId={userId} /> : <Spinner label="Loading the builder…" />;
}
