import { ReleaseOrder } from './release-order';

describe('ReleaseOrder', () => {
  it('reserves one thousandth per number on the page within a millisecond', () => {
    const order = new ReleaseOrder();
    expect(order.next(1_000, 1)).toBe(0);
    expect(order.next(1_000, 12)).toBe(1);
    expect(order.next(1_000, 1)).toBe(13);
  });

  it('starts again at zero in every other millisecond, backwards too', () => {
    const order = new ReleaseOrder();
    order.next(1_000, 3);
    expect(order.next(1_001, 1)).toBe(0);
    expect(order.next(1_001, 1)).toBe(1);
    expect(order.next(999, 1)).toBe(0);
  });
});
