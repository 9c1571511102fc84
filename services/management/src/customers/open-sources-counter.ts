/**
 * How many of a customer's sources are still open. DELETE /customers/:id is refused while any are
 * (docs/partner-api.md, Deleting). The sources feature implements this port on its own table
 * (TypeormSourcesStore).
 */
export interface OpenSourcesCounter {
  countOpenSources(partnerId: string, customerId: string): Promise<number>;
  /**
   * Closed sources whose tracking number is still held back at `now`: a call to it is still the
   * source's, so its customer must stay (docs/cdrs.md, "Deleting a customer").
   */
  countHeldBackSources(partnerId: string, customerId: string, now: Date): Promise<number>;
}
