/**
 * A reason to stop the start that the user can act on. The launcher prints its message as one line,
 * without a stack trace, and exits non-zero.
 */
export class LauncherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LauncherError';
  }
}
