import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ValidationError } from '@trackline/domain';
import bodyParser from 'body-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { fieldLabel } from '@trackline/contracts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The seed's own spelling (Request conventions 1) is accepted besides the standard one. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'application/x-www-form-urlencode']);
const JSON_TYPES = new Set(['application/json']);

/**
 * Parses urlencoded and JSON bodies into `req.body` (a plain object; `{}` without a body). UTF-8
 * only: a declared other charset, invalid UTF-8 bytes or malformed percent-escapes are a 400
 * instead of silently turning into U+FFFD. Anything that is not a JSON object is a 400.
 */
export function requestBody(): RequestHandler[] {
  const json = bodyParser.json({
    limit: BODY_LIMIT_BYTES,
    strict: false,
    type: (req) => JSON_TYPES.has(mediaType(req)),
    verify: (_req, _res, buffer) => requireUtf8(buffer),
  });
  const form = bodyParser.urlencoded({
    limit: BODY_LIMIT_BYTES,
    extended: false,
    parameterLimit: 1000,
    type: (req) => FORM_TYPES.has(mediaType(req)),
    verify: (_req, _res, buffer) => requirePercentUtf8(buffer),
  });
  const check = (req: Request, _res: Response, next: NextFunction): void => {
    const type = mediaType(req);
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
      throw new ValidationError('Content-Type', `charset must be UTF-8, not ${charset}`);
    }
    if (hasBody(req) && !FORM_TYPES.has(type) && !JSON_TYPES.has(type)) {
      throw new ValidationError(
        'Content-Type',
        `must be application/x-www-form-urlencoded or application/json, not ${type || 'missing'}`,
      );
    }
    next();
  };
  const shape = (req: Request, _res: Response, next: NextFunction): void => {
    const body: unknown = req.body;
    if (body === undefined) req.body = {};
    else if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ValidationError('body', 'must be a JSON object');
    }
    next();
  };
  return [check, json, form, shape];
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? '0') > 0;
}

function requireUtf8(buffer: Buffer): void {
  if (!isUtf8(buffer)) throw new ValidationError('body', 'is not valid UTF-8');
}

function requirePercentUtf8(buffer: Buffer): void {
  requireUtf8(buffer);
  for (const pair of buffer.toString('utf8').split('&')) {
    let name: string;
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
      name = decodeURIComponent(pair.split('=')[0].replace(/\+/g, ' '));
    } catch {
      throw new ValidationError('body', 'has a percent-escape that is not valid UTF-8');
    }
    // The form parser drops these two silently; they are refused like any unknown field instead.
    if ((name === '' && pair !== '') || name === '__proto__') {
      throw new ValidationError(fieldLabel(name), 'is not a known field');
    }
  }
}
