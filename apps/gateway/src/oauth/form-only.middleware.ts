import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * /oauth/token and /oauth/revoke take only application/x-www-form-urlencoded (RFC 6749 §3.2). Runs before
 * body parsing, so a JSON or other body is refused with an OAuth error, not the platform's error body.
 */
@Injectable()
export class FormOnlyMiddleware implements NestMiddleware {
  use(req: IncomingMessage, res: ServerResponse, next: () => void) {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (req.method !== 'POST' || type === 'application/x-www-form-urlencoded') return next();
    res.statusCode = 400;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('pragma', 'no-cache');
    res.end(JSON.stringify({ error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' }));
  }
}
