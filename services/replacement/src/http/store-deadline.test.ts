import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { withStoreDeadline } from './store-deadline';

describe('withStoreDeadline', () => {
  it('passes the work through when it settles in time', async () => {
    await expect(withStoreDeadline(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(withStoreDeadline(Promise.reject(new Error('boom')), 50)).rejects.toThrow('boom');
  });

  it('fails with StoreUnavailableError at the deadline, and a later rejection is not unhandled', async () => {
    let rejectLate!: (error: Error) => void;
    const slow = new Promise<number>((_, reject) => (rejectLate = reject));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const answer = withStoreDeadline(slow, 10);
      await expect(answer).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(answer).rejects.toMatchObject({ reason: 'no answer within 10 ms' });
      rejectLate(new Error('late'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
