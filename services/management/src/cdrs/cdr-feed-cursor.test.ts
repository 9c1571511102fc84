import fc from 'fast-check';
import { ValidationError } from '@trackline/domain';
import { decodeFeedCursor, encodeFeedCursor, FEED_START } from './cdr-feed-cursor';

describe('change feed cursor', () => {
  it('gives back the place it was made from', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        (txid, id) => {
          const position = { txid: String(txid), id: String(id) };
          expect(decodeFeedCursor('cursor', encodeFeedCursor(position))).toEqual(position);
        },
      ),
    );
  });

  it('starts at the oldest change when empty', () => {
    expect(decodeFeedCursor('cursor', '')).toEqual(FEED_START);
  });

  it.each([
    ['not base64url', 'abc+/='],
    ['another version', Buffer.from('c2.1.2').toString('base64url')],
    ['a leading zero', Buffer.from('c1.01.2').toString('base64url')],
    ['past bigint', Buffer.from(`c1.${2n ** 63n}.1`).toString('base64url')],
    ['too long', 'a'.repeat(201)],
  ])('refuses %s, naming the field', (_case, cursor) => {
    expect(() => decodeFeedCursor('cursor', cursor)).toThrow(ValidationError);
    expect(() => decodeFeedCursor('cursor', cursor)).toThrow(/^cursor: /);
  });
});
