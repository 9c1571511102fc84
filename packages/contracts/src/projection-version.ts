/**
 * Version of the layout of every projection management writes for replacement to read. A reader
 * that finds a version it does not know refuses the value (it cannot know what the fields mean)
 * instead of guessing; management bumps this when a projection's shape changes and rebuilds all
 * projections at its next start.
 *
 * History:
 * - 1: partner config; source routes with `vm_divert_all` as the only voicemail diversion.
 * - 2: source routes gain `vm_divert_busy` and `vm_divert_noanswer`. The partner config layout is
 *   unchanged.
 *
 * Upgrade path: deploy replacement first (it reads versions 1 and 2; a version-1 route is read as
 * stale, see `decodeSourceRoute`), then management, whose rebuild at start rewrites every
 * projection at version 2. The other order would leave a replacement of version 1 refusing the
 * routes management writes.
 */
export const PROJECTION_VERSION = 2;

/** The oldest version readers still decode; anything below it, or above PROJECTION_VERSION, is refused. */
export const OLDEST_READABLE_PROJECTION_VERSION = 1;

/** Whether a reader of this code understands a projection of `version`. */
export function isReadableProjectionVersion(version: unknown): version is number {
  return (
    typeof version === 'number' &&
    Number.isSafeInteger(version) &&
    version >= OLDEST_READABLE_PROJECTION_VERSION &&
    version <= PROJECTION_VERSION
  );
}
