import { chooseStaticSource, type StaticSourceCandidate } from './static-source';

const at = (iso: string) => new Date(iso);
const open = (id: string): StaticSourceCandidate => ({ id, status: 'active', closedAt: null });
const closed = (id: string, iso: string): StaticSourceCandidate => ({
  id,
  status: 'closed',
  closedAt: at(iso),
});

describe('chooseStaticSource', () => {
  const start = at('2026-03-02T09:00:00Z');

  it('gives the call to the open source, whatever closed before it', () => {
    const candidates = [closed('3', '2026-01-01T00:00:00Z'), open('7'), closed('9', '2026-02-01T00:00:00Z')];
    expect(chooseStaticSource(candidates, start, null)).toEqual({ source: open('7'), heldBack: false });
  });

  it('gives a late record to the source that was open when the call started', () => {
    const source = closed('5', '2026-03-02T09:30:00Z');
    expect(chooseStaticSource([source], start, at('2026-04-01T09:30:00Z'))).toEqual({
      source,
      heldBack: false,
    });
  });

  it('marks a call during the hold-back as held back, and after it as nobody’s', () => {
    const source = closed('5', '2026-03-01T00:00:00Z');
    expect(chooseStaticSource([source], start, at('2026-03-31T00:00:00Z'))).toEqual({
      source,
      heldBack: true,
    });
    expect(chooseStaticSource([source], start, at('2026-03-02T09:00:00Z'))).toEqual({
      source: null,
      heldBack: false,
    });
    expect(chooseStaticSource([source], start, null)).toEqual({ source: null, heldBack: false });
  });

  it('takes the source closed last, then the larger id', () => {
    const earlier = closed('90', '2026-02-01T00:00:00Z');
    const later = closed('10', '2026-03-01T00:00:00Z');
    const twin = closed('11', '2026-03-01T00:00:00Z');
    const held = at('2026-03-31T00:00:00Z');
    expect(chooseStaticSource([earlier, later], start, held).source).toBe(later);
    expect(chooseStaticSource([twin, later, earlier], start, held).source).toBe(twin);
    expect(chooseStaticSource([], start, held)).toEqual({ source: null, heldBack: false });
  });
});
