import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateAtEdge } from '../common/validation-errors.js';
import { SendBotEventDto } from './bot-event.dto.js';
import { chatUserId, isChatToken } from './chat-token.js';
import { AppEventDto } from './app-event.dto.js';
import { isJsonObjectString } from './json-object-string.js';
import { jsonByteLength, SDK_PAYLOAD_MAX_BYTES } from './json-size.js';
import { StartSessionDto } from './start-session.dto.js';
import { webhookUrlProblem } from './webhook.dto.js';

function errorsOf<T extends object>(cls: new () => T, body: unknown): string[] {
  return validateAtEdge(cls, body).errors;
}

describe('chat auth token and user id', () => {
  it('accepts 1-40 of A-Z a-z 0-9 _ - only', () => {
    expect(isChatToken('Az09_-')).toBe(true);
    expect(isChatToken('x'.repeat(40))).toBe(true);
    for (const bad of ['', 'x'.repeat(41), 'a b', 'a.b', 'ä', 'a+b', 42, null]) expect(isChatToken(bad)).toBe(false);
  });

  it('derives the user id as the hex SHA-256 of the token', () => {
    expect(chatUserId('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('StartSessionDto', () => {
  it('keeps the payload as sent, nested values included', () => {
    const payload = { a: [1, { b: null }], c: { d: { e: 'f' } }, g: true };
    const dto = plainToInstance(StartSessionDto, { authToken: 't', payload, version: 2 });
    expect(errorsOf(StartSessionDto, { authToken: 't', payload, version: 2 })).toEqual([]);
    expect(JSON.stringify(dto.payload)).toBe(JSON.stringify(payload));
  });

  it('names each bad field', () => {
    expect(errorsOf(StartSessionDto, { authToken: 'a b', payload: [], version: 1.5 })).toEqual([
      'authToken must be 1-40 characters of A-Z a-z 0-9 _ -',
      'payload must be a JSON object',
      'version must be a positive integer',
    ]);
  });
});

describe('payload and app event data size', () => {
  // {"k":"…"} is 8 bytes of JSON around the string; "é" is 2 bytes in UTF-8.
  const sized = (bytes: number) => ({ k: 'é'.repeat((bytes - 8) / 2) });

  it('measures UTF-8 bytes of the JSON text', () => {
    expect(jsonByteLength(sized(SDK_PAYLOAD_MAX_BYTES))).toBe(SDK_PAYLOAD_MAX_BYTES);
    expect(jsonByteLength({ k: '😀' })).toBe(12);
  });

  it('accepts up to SDK_PAYLOAD_MAX_BYTES and names the field beyond it', () => {
    const message = `payload must be at most ${SDK_PAYLOAD_MAX_BYTES} bytes as JSON (UTF-8)`;
    expect(errorsOf(StartSessionDto, { authToken: 't', payload: sized(SDK_PAYLOAD_MAX_BYTES), version: 2 })).toEqual([]);
    expect(errorsOf(StartSessionDto, { authToken: 't', payload: sized(SDK_PAYLOAD_MAX_BYTES + 2), version: 2 })).toEqual([message]);
    expect(errorsOf(AppEventDto, { code: 'c', data: sized(SDK_PAYLOAD_MAX_BYTES) })).toEqual([]);
    expect(errorsOf(AppEventDto, { code: 'c', data: sized(SDK_PAYLOAD_MAX_BYTES + 2) })).toEqual([message.replace('payload', 'data')]);
  });
});

describe('SendBotEventDto', () => {
  const body = (code: string, data: unknown) => ({ userId: chatUserId('u'), event: { code, data: { code: 'logout', data } } });

  it('accepts app.sendEvent objects', () => {
    expect(errorsOf(SendBotEventDto, body('sendReactNativeEvent', '{"actionType":"button"}'))).toEqual([]);
    expect(errorsOf(SendBotEventDto, body('sendIosEvent', '{}'))).toEqual([]);
  });

  it('names event.code and event.data.data', () => {
    expect(errorsOf(SendBotEventDto, body('sendEvent', '{}'))).toEqual(['event.code must be a send<Platform>Event identifier, e.g. sendReactNativeEvent']);
    expect(errorsOf(SendBotEventDto, body('sendAndroidEvent', '[]'))).toEqual(['event.data.data must be a string holding a JSON object, e.g. "{\\"actionType\\":\\"button\\"}"']);
  });

  it('isJsonObjectString accepts only strings of JSON objects', () => {
    expect(isJsonObjectString('{"a":1}')).toBe(true);
    for (const bad of ['[]', '1', '"s"', 'null', '{a:1}', '', { a: 1 }, undefined]) expect(isJsonObjectString(bad)).toBe(false);
  });
});

describe('webhookUrlProblem', () => {
  it('wants https, or http when allowed; no user info or fragment', () => {
    expect(webhookUrlProblem('https://bot.example.com/hook?x=1', false)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', false)).toBe('must be an https URL');
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(webhookUrlProblem('ftp://example.com', true)).toBe('must be an http(s) URL');
    expect(webhookUrlProblem('/relative', true)).toBe('must be an absolute URL');
    expect(webhookUrlProblem('https://u:p@example.com/', false)).toBe('must not contain user info');
    expect(webhookUrlProblem('https://example.com/#frag', false)).toBe('must not contain a fragment');
  });
});
