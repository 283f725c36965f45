import { JSON_MAX_DEPTH } from './json-nesting.js';

/** A JSON body nested deeper than JSON_MAX_DEPTH: refused before it is parsed. */
export class JsonTooDeepError extends Error {
  readonly statusCode = 400;

  constructor() {
    super(`the JSON body is nested deeper than ${JSON_MAX_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
  }
}
