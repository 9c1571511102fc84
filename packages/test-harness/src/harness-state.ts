// What the global setup started, kept for the global teardown. It lives on globalThis under a
// registered symbol because jest may load this package twice in one process (from source through
// one project's transform and from dist through another's); both copies must see one state, or a
// second project's global setup would start a second pair of containers.
export interface HarnessState {
  started: boolean;
  // Stops whatever startTestStores started (containers), newest first.
  stoppers: Array<() => Promise<void>>;
  // Template databases this process created, dropped by stopTestStores.
  templates: string[];
}

const STATE_KEY = Symbol.for('trackline.test-harness.state');

export function harnessState(): HarnessState {
  const holder = globalThis as unknown as Record<symbol, HarnessState | undefined>;
  let state = holder[STATE_KEY];
  if (state === undefined) {
    state = { started: false, stoppers: [], templates: [] };
    holder[STATE_KEY] = state;
  }
  return state;
}
