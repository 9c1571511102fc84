import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { hostileAuthorizationHeaders } from '../src/test-support/hostile-headers';
import { rawRequest } from '../src/test-support/https-request';
import { summarize, type LatencySummary } from './bench-stats';

export interface HeaderFloodResult {
  rounds: number;
  requestsPerRound: number;
  /** The slowest `/health` probe of each round, summarised over the rounds (ms). */
  worstProbeMs: LatencySummary;
}

/**
 * Anyone can send an Authorization header before being known (docs/architecture.md, Hardened
 * edges): 50 of the costliest ones at once, while `/health` is probed back to back on a kept-alive
 * connection, the round's figure being its slowest probe. Plain HTTP from a trusted proxy, as
 * behind a TLS terminator, so the figure is the header's cost and not 50 TLS handshakes'.
 */
export async function measureHeaderFlood(port: number, rounds: number): Promise<HeaderFloodResult> {
  const headers = hostileAuthorizationHeaders();
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const forwarded = { 'X-Forwarded-Proto': 'https' };
  const send = (path: string, extra: Record<string, string>, agent?: Agent) =>
    rawRequest({ port, method: 'GET', path, plain: true, headers: { ...forwarded, ...extra }, agent });
  const probe = async (): Promise<number> => {
    const started = performance.now();
    const result = await send('/health', {}, probeAgent);
    if (result.status !== 200) throw new Error(`/health answered ${result.status} during the flood`);
    return performance.now() - started;
  };
  try {
    const worst: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await probe(); // the probe's connection is open before the flood starts
      let flooding = true;
      const flood = Promise.all(
        headers.map((authorization) => send('/miscellaneous/ping', { Authorization: authorization })),
      ).finally(() => {
        flooding = false;
      });
      let slowest = 0;
      do slowest = Math.max(slowest, await probe());
      while (flooding);
      const refused = (await flood).filter((answer) => answer.status === 401).length;
      if (refused !== headers.length)
        throw new Error(`${headers.length - refused} hostile requests not refused with 401`);
      worst.push(slowest);
    }
    return { rounds, requestsPerRound: headers.length, worstProbeMs: summarize(worst) };
  } finally {
    probeAgent.destroy();
  }
}
