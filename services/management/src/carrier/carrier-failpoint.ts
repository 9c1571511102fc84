/**
 * A test seam, nothing else: with TRACKLINE_TEST_FAILPOINT=carrier-after-purchase the process kills
 * itself (SIGKILL) right after the carrier answered a purchase and before anything of it is stored —
 * the crash the idempotent buying must survive (carrier-numbers.kill.integration.test.ts,
 * docs/carrier-numbers.md). Read only here; never set it in production.
 */
export function carrierFailpoint(name: 'carrier-after-purchase'): void {
  if (process.env.TRACKLINE_TEST_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
