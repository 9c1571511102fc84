import { UnauthorizedError } from '@trackline/domain';

/** A 401 that carries fresh digest challenges for the WWW-Authenticate headers. */
export class AuthenticationError extends UnauthorizedError {
  constructor(
    message: string,
    readonly challenges: string[],
  ) {
    super(message);
  }
}
