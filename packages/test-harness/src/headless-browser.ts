import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

/** Debian's package name first (what .ci/run installs), then the names other systems use. */
const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

function findBrowser(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of BROWSER_NAMES) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  throw new Error(
    `no headless browser on the PATH (${BROWSER_NAMES.join(', ')}); apt-get install -y chromium`,
  );
}

/**
 * Loads `url` in headless Chromium and returns the DOM after its scripts ran, so a test can check
 * what a reader of a page would see. Virtual time lets the page's fetches and rendering finish
 * without the test waiting on a wall clock; a fresh profile keeps runs apart. Self-signed
 * certificates (the management service's test certificate) are accepted. Everything that would
 * reach out of the machine on its own (updates, sync, metrics) is switched off.
 */
export async function renderedDom(url: string, options: { virtualTimeMs?: number } = {}): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'trackline-browser-'));
  try {
    const { stdout } = await promisify(execFile)(
      findBrowser(),
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--ignore-certificate-errors',
        `--user-data-dir=${profile}`,
        `--virtual-time-budget=${options.virtualTimeMs ?? 15_000}`,
        '--dump-dom',
        url,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * What a reader sees of a DOM: its text without tags (viewers break long words with `<wbr>`), the
 * usual entities decoded, and `code` shown without the backticks Markdown wrote it with.
 */
export function visibleText(dom: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return dom
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => entities[name])
    .replace(/`/g, '');
}
