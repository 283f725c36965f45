import { SANDBOX_LIMITS } from './sandbox-limits.js';

/**
 * Runs in each fresh QuickJS context before the bot's code, as a global script that evaluates to a function
 * of the two host callbacks. It keeps the built-ins it needs in its closure, so code that later replaces
 * JSON.stringify, String or Array.isArray changes only what it hands over itself, and the host checks that
 * again anyway (app-event.ts, the result's length). It returns:
 * - app: the object bot code sees (frozen; its methods are plain sandbox functions, no host object);
 * - describe(thrown): "Name: message" of a thrown value, never its stack;
 * - stringify(value), parse(text): the original JSON functions;
 * - options(variables): the `{ variables, app }` a module's main gets.
 */
export const SANDBOX_PRELUDE = `(function (hostSend, hostLog) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  const toText = String;
  const freeze = Object.freeze;
  const SendError = TypeError;
  const maxLine = ${SANDBOX_LIMITS.maxLogLineLength};
  const isObject = (value) => typeof value === 'object' && value !== null;
  const kind = (value) => (value === null ? 'null' : isArray(value) ? 'array' : typeof value);

  function text(value) {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch (_) {}
    try {
      return toText(value);
    } catch (_) {
      return '[unprintable]';
    }
  }

  function snapshot(event) {
    const fields = { eventType: kind(event), codeType: 'undefined', dataType: 'undefined', dataCodeType: 'undefined', dataDataType: 'undefined' };
    if (!isObject(event) || isArray(event)) return stringify(fields);
    const code = event.code;
    const data = event.data;
    fields.codeType = kind(code);
    if (typeof code === 'string') fields.code = code;
    fields.dataType = kind(data);
    if (isObject(data) && !isArray(data)) {
      const dataCode = data.code;
      const dataData = data.data;
      fields.dataCodeType = kind(dataCode);
      if (typeof dataCode === 'string') fields.dataCode = dataCode;
      fields.dataDataType = kind(dataData);
      if (typeof dataData === 'string') fields.dataData = dataData;
      else if (isObject(dataData) && !isArray(dataData)) fields.dataData = stringify(dataData);
    }
    return stringify(fields);
  }

  const app = freeze({
    sendEvent(event) {
      const problem = hostSend(snapshot(event));
      if (typeof problem === 'string') throw new SendError(problem);
    },
    log(...values) {
      let line = '';
      for (let i = 0; i < values.length && line.length <= maxLine; i++) line += (i === 0 ? '' : ' ') + text(values[i]);
      hostLog(line.length > maxLine ? apply(slice, line, [0, maxLine]) : line);
    },
  });

  function describe(thrown) {
    try {
      if (isObject(thrown) || typeof thrown === 'function') {
        const name = thrown.name;
        const message = thrown.message;
        if (typeof message === 'string') return typeof name === 'string' && name !== '' ? name + ': ' + message : message;
      }
      return toText(thrown);
    } catch (_) {
      return 'a value that cannot be described';
    }
  }

  return freeze({
    app,
    describe,
    stringify: (value) => stringify(value),
    parse: (json) => parse(json),
    options: (variables) => ({ variables, app }),
  });
})`;
