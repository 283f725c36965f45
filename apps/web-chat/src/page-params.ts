/**
 * What the SDK put in the page's address (see buildWebViewUrl): botId, version, enableSpeech and the
 * colours in the query; the user token and the payload in the fragment, which the browser never sends,
 * so that a payload as large as the SDK allows (64 KB) cannot make the request too large.
 */
export interface PageParams {
  botId: string;
  version: number;
  enableSpeech: boolean;
  payload: Record<string, unknown>;
  token: string;
  statusBarColor?: string;
  closeButtonColor?: string;
}

/** Why the address is not a working chat link, written for the person who opened it. */
export interface LinkProblem {
  problem: string;
}

const COLOR = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const TOKEN = /^[A-Za-z0-9_-]{1,40}$/;

/** The page's parameters, or the problem to show when the address is not one the SDK builds. */
export function readPageParams(search: string, hash: string): PageParams | LinkProblem {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const botId = query.get('botId') ?? '';
  if (!botId.trim()) return { problem: 'The link does not say which chat to open.' };
  const token = fragment.get('ymAuthenticationToken') ?? '';
  if (!TOKEN.test(token)) return { problem: 'The link does not say who you are, or it was cut short.' };
  const version = Number(query.get('version') ?? '2');
  // The fragment's payload; links built before it moved there carry it in the query.
  const raw = fragment.get('payload') ?? query.get('payload') ?? '{}';
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return { problem: 'Part of the link is damaged (its payload is not readable), perhaps because it was cut short when it was copied.' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { problem: 'Part of the link is damaged (its payload is not a set of named values).' };
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
