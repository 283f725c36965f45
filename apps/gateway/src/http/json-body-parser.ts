import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_MAX_DEPTH, jsonNestedDeeperThan } from './json-nesting.js';
import { JsonTooDeepError } from './json-too-deep.error.js';
import { unstorableTextIn } from './unstorable-text.js';
import { UnstorableTextError } from './unstorable-text.error.js';

type ParserDone = (err: Error | null, body?: unknown) => void;

/**
 * Fastify's own JSON parser, with the instance's poisoning settings, behind a nesting check: a body
 * nested too deep is answered 400 before anything recurses over it (the parser's poisoning scan,
 * class-transformer, validation). A body whose strings hold what Postgres cannot store (a NUL, an
 * unpaired surrogate) is answered 400 naming the field, instead of failing where it is written.
 */
export function depthLimitedJsonParser(fastify: FastifyInstance): (req: FastifyRequest, body: string | Buffer, done: ParserDone) => void {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  return (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('latin1');
    if (jsonNestedDeeperThan(text, JSON_MAX_DEPTH)) return done(new JsonTooDeepError(), undefined);
    parseJson(req, body as string, (err, value) => {
      const problem = err ? null : unstorableTextIn(value, text);
      if (problem) done(new UnstorableTextError(problem), undefined);
      else done(err, value);
    });
  };
}

/**
 * The same parser in a route's own plugin scope, in place of the one it inherits; `onText` sees the
 * text of each body it parses.
 */
export function useDepthLimitedJsonParser(scope: FastifyInstance, onText?: (req: FastifyRequest, text: string) => void): void {
  const parse = depthLimitedJsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    onText?.(req, text as string);
    parse(req, text as string, done);
  });
}
