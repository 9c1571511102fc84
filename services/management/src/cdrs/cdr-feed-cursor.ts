import { ValidationError } from '@trackline/domain';

/** A place in a partner's change feed: after the change `id` of the transaction `txid`. */
export interface CdrFeedPosition {
  /** The writing transaction's id (`pg_current_xact_id()`), decimal. */
  txid: string;
  /** The change row's id, decimal. */
  id: string;
}

/** Before every change kept (docs/cdrs.md, Change feed). */
export const FEED_START: CdrFeedPosition = { txid: '0', id: '0' };

const VERSION = 'c1';
const DECODED = /^c1\.(0|[1-9]\d{0,18})\.(0|[1-9]\d{0,18})$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,200}$/;
const BIGINT_MAX = 9223372036854775807n;

/**
 * Opaque to the partner (base64url of `c1.<txid>.<id>`), so the feed can change how it keeps its
 * place without breaking a client; the version prefix says which layout a cursor has.
 */
export function encodeFeedCursor(position: CdrFeedPosition): string {
  return Buffer.from(`${VERSION}.${position.txid}.${position.id}`, 'utf8').toString('base64url');
}

/** An empty cursor starts at the oldest change kept; anything this feed did not give out is a 400. */
export function decodeFeedCursor(field: string, cursor: string): CdrFeedPosition {
  if (cursor === '') return FEED_START;
  const refused = () =>
    new ValidationError(field, 'must be a cursor this feed answered (next_cursor), or empty');
  if (!BASE64URL.test(cursor)) throw refused();
  const match = DECODED.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw refused();
  const [, txid, id] = match as unknown as [string, string, string];
  if (BigInt(txid) > BIGINT_MAX || BigInt(id) > BIGINT_MAX) throw refused();
  return { txid, id };
}
