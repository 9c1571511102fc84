/**
 * Whether a customer has call records. DELETE /customers/:id is refused while it has (docs/cdrs.md,
 * "Deleting a customer"): the records are what the partner bills by and are listed by customer. The
 * CDR feature implements this port on its own table (TypeormCdrsStore).
 */
export interface CustomerCallRecords {
  hasCallRecords(partnerId: string, customerId: string): Promise<boolean>;
}
