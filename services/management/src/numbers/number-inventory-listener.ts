/**
 * Told after a committed change of a partner's number inventory, so the Redis projections (pool
 * membership, the number index) follow. Called after the commit, never inside the transaction.
 */
export interface NumberInventoryListener {
  numbersChanged(partnerId: string): Promise<void>;
}
