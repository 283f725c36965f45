/** What the SDK put in the page's address (see buildWebViewUrl): the query, and the token in the fragment. */
export interface PageParams {
  botId: string;
  version: number;
  enableSpeech: boolean;
  payload: Record<string, unknown>;
  token: string;
  statusBarColor?: string;
  closeButtonColor?: string;
}

const COLOR = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const TOKEN = /^[A-Za-z0-9_-]{1,40}$/;

/** The page's parameters, or the problem to show when the address is not one the SDK builds. */
export function readPageParams(search: string, hash: string): PageParams | string {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const botId = query.get('botId') ?? '';
  if (!botId.trim()) return 'This chat link has no bot (botId).';
  const token = fragment.get('ymAuthenticationToken') ?? '';
  if (!TOKEN.test(token)) return 'This chat link has no valid user token.';
  const version = Number(query.get('version') ?? '2');
  let payload: unknown;
  try {
    payload = JSON.parse(query.get('payload') ?? '{}');
  } catch {
    return 'This chat link has a payload that is not JSON.';
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return 'This chat link has a payload that is not a JSON object.';
  const color = (name: string) => {
    const value = query.get(name) ?? '';
    return COLOR.test(value) ? cssColor(value) : undefined;
  };
  return {
    botId,
    version: Number.isSafeInteger(version) && version > 0 ? version : 2,
    enableSpeech: query.get('enableSpeech') === 'true',
    payload: payload as Record<string, unknown>,
    token,
    statusBarColor: color('statusBarColor'),
    closeButtonColor: color('closeButtonColor'),
  };
}

/** Android's #AARRGGBB as CSS's #RRGGBBAA. */
function cssColor(value: string): string {
  return value.length === 9 ? `#${value.slice(3)}${value.slice(1, 3)}` : value;
}
