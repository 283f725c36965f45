import type { InAppBrowserLike } from '../cordova-bot-chat';

/** A stand-in for an InAppBrowser window: records what the plugin does to it, and lets a test fire its events. */
export class RecordingBrowser implements InAppBrowserLike {
  readonly scripts: string[] = [];
  readonly calls: string[] = [];
  private readonly listeners = new Map<string, Array<(event: { data?: unknown }) => void>>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  fire(type: string, data?: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }

  executeScript(details: { code: string }): void {
    this.scripts.push(details.code);
  }

  show(): void {
    this.calls.push('show');
  }

  hide(): void {
    this.calls.push('hide');
  }

  close(): void {
    this.calls.push('close');
  }
}
