// The harness hands its state from jest's global setup to the workers through environment variables:
// workers are forked after every global setup has run, so they inherit whatever it exported.
// This file is the one place that reads or writes them.

export const DATABASE_URL_VAR = 'TEST_DATABASE_URL';
export const REDIS_URL_VAR = 'TEST_REDIS_URL';
export const TEMPLATE_DB_VAR = 'TRACKLINE_TEST_TEMPLATE_DB';
// JSON object { "<jest project rootDir>": "<template database>" }, so two projects that prepare
// different templates in one multi-project run each get their own.
export const PROJECT_TEMPLATES_VAR = 'TRACKLINE_TEST_TEMPLATE_DBS';

export function readEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function writeEnv(name: string, value: string): void {
  process.env[name] = value;
}

export function requireEnv(name: string): string {
  const value = readEnv(name);
  if (value === undefined) {
    throw new Error(
      `${name} is not set. Run this test under jest with the test-harness global setup ` +
        `(packages/test-harness/jest-global-setup.js), or set ${DATABASE_URL_VAR} and ${REDIS_URL_VAR}.`,
    );
  }
  return value;
}

export function readProjectTemplates(): Record<string, string> {
  const raw = readEnv(PROJECT_TEMPLATES_VAR);
  return raw === undefined ? {} : (JSON.parse(raw) as Record<string, string>);
}

export function writeProjectTemplate(rootDir: string, database: string): void {
  writeEnv(PROJECT_TEMPLATES_VAR, JSON.stringify({ ...readProjectTemplates(), [rootDir]: database }));
}
