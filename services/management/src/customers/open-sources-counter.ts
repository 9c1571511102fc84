/**
 * How many of a customer's sources are still open. DELETE /customers/:id is refused while any are
 * (SPEC §6). The sources feature implements this port on its own table.
 */
export interface OpenSourcesCounter {
  countOpenSources(partnerId: string, customerId: string): Promise<number>;
}

/**
 * The implementation while no sources table exists (it arrives with the sources feature): with
 * nowhere to store a source, no customer can have an open one, so the answer is truly 0.
 * Replace it in the composition root once the sources store exists.
 */
export class NoSourcesTableCounter implements OpenSourcesCounter {
  async countOpenSources(): Promise<number> {
    return 0;
  }
}
