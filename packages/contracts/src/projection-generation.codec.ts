import { PROJECTION_VERSION } from './projection-version';

/**
 * The generation marker (docs/redis-keys.md, Projection generation): which full rebuild of the
 * projections Redis holds. Written by management after a rebuild has written every partner; its
 * presence is all replacement asks.
 */
export interface ProjectionGeneration {
  /** PROJECTION_VERSION of the management that rebuilt. */
  version: number;
  /** Random per rebuild: tells one rebuild's result from the next in logs and redis-cli. */
  id: string;
  /** ISO 8601 instant the rebuild finished. */
  builtAt: string;
}

export function encodeProjectionGeneration(generation: ProjectionGeneration): string {
  return JSON.stringify({ version: generation.version, id: generation.id, built_at: generation.builtAt });
}

/** Null for a value no management wrote (missing or unreadable): a rebuild replaces it. */
export function decodeProjectionGeneration(raw: string | null): ProjectionGeneration | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const { version, id, built_at: builtAt } = value;
    if (!Number.isSafeInteger(version) || typeof id !== 'string' || typeof builtAt !== 'string') return null;
    return { version: version as number, id, builtAt };
  } catch {
    return null;
  }
}

/**
 * Whether a management of this code must rebuild over the marker found: when it is missing or
 * unreadable, or an older version wrote it. A newer version's marker is left alone, so replicas
 * of two releases during a rollout do not rebuild over each other in turns.
 */
export function needsRebuild(generation: ProjectionGeneration | null): boolean {
  return generation === null || generation.version < PROJECTION_VERSION;
}
