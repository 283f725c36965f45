import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_MAX_DEPTH, jsonNestedDeeperThan } from './json-nesting.js';
import { JsonTooDeepError } from './json-too-deep.error.js';

type ParserDone = (err: Error | null, body?: unknown) => void;

/**
 * Fastify's own JSON parser, with the instance's poisoning settings, behind a nesting check: a body
 * nested too deep is answered 400 before anything recurses over it (the parser's poisoning scan,
 * class-transformer, validation).
 */
export function depthLimitedJsonParser(fastify: FastifyInstance): (req: FastifyRequest, body: string | Buffer, done: ParserDone) => void {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  return (req, body, done) => {
    if (jsonNestedDeeperThan(typeof body === 'string' ? body : body.toString('latin1'), JSON_MAX_DEPTH)) return done(new JsonTooDeepError(), undefined);
    parseJson(req, body as string, done);
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
