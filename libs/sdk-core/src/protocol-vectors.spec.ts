// The pure conformance vectors of docs/sdk-protocol.md (test/sdk-protocol/vectors, "kind": "pure")
// against this package: what a native SDK must compute the same way. The live ones run in test/sdk-protocol.e2e-spec.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError, buildWebViewUrl, chatPageCommand, handleNotification, parsePageMessage, type BotConfig, type ChatPageCommand } from './index';

const dir = join(__dirname, '../../../test/sdk-protocol/vectors');
const vector = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const named = (file: string, key: string): Array<[string, unknown]> => vector(file).cases.map((c: Record<string, unknown>) => [JSON.stringify(c[key]), c]);

function outcome(run: () => unknown): unknown {
  try {
    return { result: run() };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { error: { field: error.field, rule: error.rule } };
  }
}

describe('pure conformance vectors', () => {
  it('are all known to this spec', () => {
    const pure = readdirSync(dir).filter((f) => f.endsWith('.json') && vector(f).kind === 'pure');
    expect(pure).toEqual(['60-web-view-url.json', '70-push-data.json', '80-bridge.json']);
  });

  it.each(named('60-web-view-url.json', 'config'))('web view address of %s', (_name, c) => {
    const { config, cloudHost, url, error } = c as { config: BotConfig; cloudHost: string; url?: string; error?: object };
    expect(outcome(() => buildWebViewUrl(config, { cloudHost }))).toEqual(url !== undefined ? { result: url } : { error });
  });

  it.each(named('70-push-data.json', 'data'))('push tap with data %s', (_name, c) => {
    const { data, baseConfig, result, error } = c as { data: Record<string, unknown> | null; baseConfig: BotConfig; result?: unknown; error?: object };
    expect(outcome(() => handleNotification(data, baseConfig))).toEqual(error ? { error } : { result });
  });

  it('bridge messages, both ways', () => {
    const bridge = vector('80-bridge.json');
    expect(bridge.pageToHost.length).toBeGreaterThanOrEqual(8);
    for (const { text, message } of bridge.pageToHost) {
      expect(parsePageMessage(text)).toEqual(message);
      if (message) expect(parsePageMessage(JSON.parse(text))).toEqual(message); // InAppBrowser hands it parsed
    }
    for (const { command, text } of bridge.hostToPage) expect(chatPageCommand(command as ChatPageCommand)).toBe(text);
  });
});
