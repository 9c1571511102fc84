/**
 * Told after a committed change that gives a custnr another customer, or none: a customer deleted,
 * or its custnr, name or e-mail changed through the API. The replacement service sends a custnr's
 * values to management only when they differ from what it sent last (docs/redis-keys.md
 * "Customer-seen stream"); forgetting that record makes the next visitor request naming the custnr
 * send it again, so a deleted customer is created anew and the page's values apply as before.
 * Never rejects: the change is committed whatever happens here.
 */
export interface CustomerChangeListener {
  customersChanged(partnerId: string, custnrs: string[]): Promise<void>;
}
