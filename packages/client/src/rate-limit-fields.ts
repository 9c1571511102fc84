import type { IncomingHttpHeaders } from 'node:http';
import type { RateLimitState } from './errors';

/** One item of a structured-field list: a quoted policy name and its integer parameters. */
interface PolicyItem {
  name: string;
  params: Map<string, number>;
}

const ITEM = /^"([^"\\]*)"((?:;[a-z*][a-z0-9_.*-]*=-?[0-9]{1,15})*)$/;
const PARAM = /;([a-z*][a-z0-9_.*-]*)=(-?[0-9]{1,15})/g;

/**
 * The items of a `RateLimit-Policy` or `RateLimit` field (a structured-field list whose items are
 * policy names with integer parameters); undefined when the field is absent or not of that form.
 */
export function parsePolicyList(value: string | string[] | undefined): PolicyItem[] | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  const items: PolicyItem[] = [];
  for (const member of text.split(',')) {
    const match = ITEM.exec(member.trim());
    if (match === null) return undefined;
    const params = new Map<string, number>();
    for (const [, key, number] of match[2].matchAll(PARAM)) params.set(key, Number(number));
    items.push({ name: match[1], params });
  }
  return items;
}

/**
 * The account's budget from `RateLimit-Policy` (`q`, the quota) and `RateLimit` (`r` left, `t`
 * seconds to the window's end), both naming the same policy (docs/partner-api.md, Rate limit):
 * from Node's `IncomingHttpHeaders` or a fetch `Headers`. Undefined when the answer carries no
 * limit (an account the operator set to none).
 */
export function rateLimitOf(headers: IncomingHttpHeaders | Headers): RateLimitState | undefined {
  const field = (name: string) =>
    headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name];
  const current = parsePolicyList(field('ratelimit'))?.[0];
  if (current === undefined) return undefined;
  const policy = parsePolicyList(field('ratelimit-policy'))?.find((item) => item.name === current.name);
  const [limit, remaining, resetSeconds] = [
    policy?.params.get('q'),
    current.params.get('r'),
    current.params.get('t'),
  ];
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}
