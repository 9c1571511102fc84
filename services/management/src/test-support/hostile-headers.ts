import { MAX_AUTHORIZATION_LENGTH } from '../http/digest/digest-header';

/**
 * The costliest Authorization headers an unknown client can send, 50 of them: half 15 KB of one
 * word (quadratic for a backtracking parser), half just under the bound and parsed in full
 * (1,000 distinct parameters, nearly 8 KB).
 */
export function hostileAuthorizationHeaders(): string[] {
  return Array.from({ length: 50 }, (_, i) =>
    i % 2 === 0
      ? `Digest ${'x'.repeat(15_000)}`
      : `Digest ${Array.from({ length: 1_000 }, (_, k) => `p${k}=v`).join(', ')}`.slice(
          0,
          MAX_AUTHORIZATION_LENGTH,
        ),
  );
}
