import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/** Receivers with kept connections at once; the one used longest ago is forgotten first. */
const MAX_TARGETS = 256;
/**
 * An idle connection is closed after this, before a receiver that keeps them 5 s (Node's and many
 * servers' default) closes it under a request; a shorter `Keep-Alive: timeout` of the receiver wins.
 */
const IDLE_MS = 4_000;
/** Idle connections kept per target: a webhook has at most WEBHOOK_ENDPOINT_CONCURRENCY (4) in flight. */
const IDLE_PER_TARGET = 4;

/**
 * Kept-alive connections to webhook receivers (docs/webhooks.md, Safety). One pool per receiver
 * origin and per set of addresses checked for it: a delivery reuses a connection only when its host
 * resolved, right before it, to exactly the addresses that connection was opened to, so a name
 * re-pointed elsewhere (DNS rebinding) gets a pool of its own, opened to the new addresses once they
 * have passed the check. Deliveries to one receiver then share connections (and TLS sessions)
 * instead of each opening its own.
 */
export class WebhookConnections {
  private readonly agents = new Map<string, HttpAgent>();

  agentFor(url: URL, checkedAddresses: readonly string[]): HttpAgent {
    const key = `${url.protocol}//${url.host} ${[...checkedAddresses].sort().join(',')}`;
    let agent = this.agents.get(key);
    if (agent !== undefined) {
      // Re-inserted: the map's first entry is the target used longest ago.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    const options = {
      keepAlive: true,
      maxFreeSockets: IDLE_PER_TARGET,
      timeout: IDLE_MS,
      scheduling: 'lifo',
    } as const;
    agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    // A forgotten pool is not destroyed: its requests in flight finish, its idle connections time out.
    if (this.agents.size >= MAX_TARGETS) this.agents.delete(this.agents.keys().next().value as string);
    this.agents.set(key, agent);
    return agent;
  }

  /** Closes every kept connection (the worker stops). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
