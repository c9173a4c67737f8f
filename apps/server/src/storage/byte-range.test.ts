import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampRange, contentRange, decideRange } from './byte-range';

describe('decideRange (Swift swob.Range semantics)', () => {
  const partial = (offset: number, length: number) => ({
    kind: 'partial',
    range: { offset, length },
  });

  it.each([
    [undefined, 100, { kind: 'whole' }],
    ['bytes=0-9', 100, partial(0, 10)],
    ['bytes=90-', 100, partial(90, 10)],
    ['bytes=90-1000', 100, partial(90, 10)],
    ['bytes=-10', 100, partial(90, 10)],
    ['bytes=-1000', 100, partial(0, 100)],
    ['bytes = 5 - 6', 100, partial(5, 2)],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=5-3', 100, { kind: 'whole' }],
    ['bytes=-', 100, { kind: 'whole' }],
    ['bytes=a-b', 100, { kind: 'whole' }],
    ['items=0-1', 100, { kind: 'whole' }],
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
  ] as const)('%s of %i bytes', (header, length, expected) => {
    expect(decideRange(header, length)).toEqual(expected);
  });

  it('always yields a non-empty range inside the object', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(20_000), fc.nat(20_000), (length, a, b) => {
        const decision = decideRange(`bytes=${a}-${a + b}`, length);
        if (decision.kind !== 'partial') return;
        const { offset, length: size } = decision.range;
        expect(offset).toBe(a);
        expect(size).toBeGreaterThan(0);
        expect(offset + size).toBeLessThanOrEqual(length);
        expect(contentRange(decision.range, length)).toBe(
          `bytes ${offset}-${offset + size - 1}/${length}`,
        );
      }),
    );
  });

  it('clamps ranges a caller asks for', () => {
    expect(clampRange({ offset: 5, length: 100 }, 10)).toEqual({ offset: 5, length: 5 });
    expect(clampRange({ offset: 10, length: 1 }, 10)).toBeNull();
    expect(clampRange({ offset: 0, length: 0 }, 10)).toBeNull();
    expect(clampRange({ offset: -1, length: 2 }, 10)).toBeNull();
  });
});
