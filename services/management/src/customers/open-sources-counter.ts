/**
 * How many of a customer's sources are still open. DELETE /customers/:id is refused while any are
 * (SPEC §6). The sources feature implements this port on its own table (TypeormSourcesStore).
 */
export interface OpenSourcesCounter {
  countOpenSources(partnerId: string, customerId: string): Promise<number>;
}
