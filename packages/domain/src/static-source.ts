/**
 * Which source a call to a static tracking number belongs to (docs/cdrs.md, "Whose call it is"),
 * decided from every source that ever had the number. A number serves one source at a time; after
 * that source is closed, the number is held back before another source gets it.
 */
export interface StaticSourceCandidate {
  id: string;
  status: 'active' | 'closed';
  closedAt: Date | null;
}

export interface StaticSourceChoice<T> {
  source: T | null;
  /** The call reached a closed source's number during its hold-back (the record's `quarantined`). */
  heldBack: boolean;
}

/**
 * The open source, if there is one; else the source closed last: its call when the call started
 * before it closed (a late record), or a held-back call while the number is held back
 * (`heldUntil` after the call's start); else nobody's.
 */
export function chooseStaticSource<T extends StaticSourceCandidate>(
  candidates: readonly T[],
  start: Date,
  heldUntil: Date | null,
): StaticSourceChoice<T> {
  let open: T | null = null;
  let lastClosed: T | null = null;
  for (const candidate of candidates) {
    if (candidate.status === 'active') {
      if (open === null || laterId(candidate, open)) open = candidate;
    } else if (lastClosed === null || closedLater(candidate, lastClosed)) {
      lastClosed = candidate;
    }
  }
  if (open !== null) return { source: open, heldBack: false };
  if (lastClosed === null) return { source: null, heldBack: false };
  if (lastClosed.closedAt !== null && lastClosed.closedAt > start)
    return { source: lastClosed, heldBack: false };
  if (heldUntil !== null && heldUntil > start) return { source: lastClosed, heldBack: true };
  return { source: null, heldBack: false };
}

function closedLater(a: StaticSourceCandidate, b: StaticSourceCandidate): boolean {
  const at = a.closedAt?.getTime() ?? Infinity;
  const bt = b.closedAt?.getTime() ?? Infinity;
  return at !== bt ? at > bt : laterId(a, b);
}

// Ids are decimal bigint strings: longer is larger, then by text.
function laterId(a: StaticSourceCandidate, b: StaticSourceCandidate): boolean {
  return a.id.length !== b.id.length ? a.id.length > b.id.length : a.id > b.id;
}
