/**
 * Typed readers for environment variables. Each service builds its config object with these once
 * at start; every bad value is collected so the operator sees all problems in one message.
 */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** Throws one ConfigError naming every bad variable read so far. */
  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }

  string(name: string, fallback: string): string {
    return this.optionalString(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    return raw.trim();
  }

  integer(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const min = range.min ?? Number.MIN_SAFE_INTEGER;
    const max = range.max ?? Number.MAX_SAFE_INTEGER;
    if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name}=${JSON.stringify(raw)}: must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  port(name: string, fallback: number): number {
    return this.integer(name, fallback, { min: 0, max: 65535 });
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name}=${JSON.stringify(raw)}: must be true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}=${JSON.stringify(raw)}: must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw as T;
  }

  url(name: string, fallback: string | undefined, protocols: string[]): string | undefined {
    const raw = this.optionalString(name) ?? fallback;
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(
        `${name}=${JSON.stringify(raw)}: must be a URL starting with ${protocols.join(' or ')}//`,
      );
      return fallback;
    }
  }

  /** Comma-separated list; empty entries dropped. */
  list(name: string): string[] {
    const raw = this.optionalString(name);
    if (raw === undefined) return [];
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }

  /** Records a problem found by a caller's own check (e.g. a file that does not exist). */
  reject(name: string, rule: string): void {
    this.problems.push(`${name}: ${rule}`);
  }
}
