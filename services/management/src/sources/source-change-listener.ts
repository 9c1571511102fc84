/**
 * Told after a source change is committed (create, update, close), so the Redis projections of static routing
 * follow (docs/redis-keys.md, When). Called after the commit, never inside the transaction; the projections
 * read the committed state through SourceRoutesReader.
 */
export interface SourceChangeListener {
  sourceChanged(partnerId: string, sourceId: string): Promise<void>;
}
