/** The part of `fetch` the SDK uses; the global `fetch` of React Native, browsers and Node 20 fits. */
export type FetchLike = (input: string, init: FetchInit) => Promise<FetchResponseLike>;

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchResponseLike {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}
