import { SANDBOX_LIMITS } from './sandbox-limits.js';

/**
 * Runs in each fresh QuickJS context before the bot's code: a global script that evaluates to a function
 * of the two host callbacks and returns `{ app, originals }`:
 * - app: the object bot code sees (frozen; its methods are plain sandbox functions, no host object);
 * - originals: the built-ins the host's helpers use, taken before the code can replace them, so code that
 *   later bends JSON.stringify or String.prototype.slice changes only what it hands over itself (and the
 *   host checks that again anyway: app-event.ts, the lengths it reads before copying).
 * It is kept this small on purpose: compiling it is part of every call (a first version with every helper
 * inline cost about 450 µs of a 700 µs warm call). The helpers below are compiled only by the calls that
 * need them.
 */
export const SANDBOX_PRELUDE = `(function (hostSend, hostLog) {
  'use strict';
  const SendError = TypeError;
  const freeze = Object.freeze;
  const originals = freeze({ stringify: JSON.stringify, parse: JSON.parse, isArray: Array.isArray, apply: Reflect.apply, slice: String.prototype.slice, toText: String });
  const app = freeze({
    sendEvent(event) {
      const problem = hostSend(event);
      if (typeof problem === 'string') throw new SendError(problem);
    },
    log(...values) {
      hostLog(values);
    },
  });
  return { app, originals };
})`;

/** Helpers compiled on first use in a call; each is a function of `originals` returning the helper. */
export const SANDBOX_HELPERS = {
  /**
   * app.sendEvent's event taken apart into its fields and their types (see AppEventSnapshot), as JSON;
   * data.data given as a plain object is JSON-encoded here.
   */
  snapshot: `(function (o) {
  'use strict';
  const kind = (value) => (value === null ? 'null' : o.isArray(value) ? 'array' : typeof value);
  const isRecord = (value) => typeof value === 'object' && value !== null && !o.isArray(value);
  return function snapshot(event) {
    const fields = { eventType: kind(event), codeType: 'undefined', dataType: 'undefined', dataCodeType: 'undefined', dataDataType: 'undefined' };
    if (!isRecord(event)) return o.stringify(fields);
    const code = event.code;
    const data = event.data;
    fields.codeType = kind(code);
    if (typeof code === 'string') fields.code = code;
    fields.dataType = kind(data);
    if (isRecord(data)) {
      const dataCode = data.code;
      const dataData = data.data;
      fields.dataCodeType = kind(dataCode);
      if (typeof dataCode === 'string') fields.dataCode = dataCode;
      fields.dataDataType = kind(dataData);
      if (typeof dataData === 'string') fields.dataData = dataData;
      else if (isRecord(dataData)) fields.dataData = o.stringify(dataData);
    }
    return o.stringify(fields);
  };
})`,
  /** One app.log line: strings as they are, other values as JSON (or String() without a JSON form), cut to the line limit. */
  format: `(function (o) {
  'use strict';
  const maxLine = ${SANDBOX_LIMITS.maxLogLineLength};
  function text(value) {
    if (typeof value === 'string') return value;
    try {
      const json = o.stringify(value);
      if (typeof json === 'string') return json;
    } catch (_) {}
    try {
      return o.toText(value);
    } catch (_) {
      return '[unprintable]';
    }
  }
  return function format(values) {
    let line = '';
    for (let i = 0; i < values.length && line.length <= maxLine; i++) line += (i === 0 ? '' : ' ') + text(values[i]);
    return line.length > maxLine ? o.apply(o.slice, line, [0, maxLine]) : line;
  };
})`,
  /** "Name: message" of a thrown value, never its stack. */
  describe: `(function (o) {
  'use strict';
  return function describe(thrown) {
    try {
      if ((typeof thrown === 'object' && thrown !== null) || typeof thrown === 'function') {
        const name = thrown.name;
        const message = thrown.message;
        if (typeof message === 'string') return typeof name === 'string' && name !== '' ? name + ': ' + message : message;
      }
      return o.toText(thrown);
    } catch (_) {
      return 'a value that cannot be described';
    }
  };
})`,
} as const;

export type SandboxHelperName = keyof typeof SANDBOX_HELPERS;
