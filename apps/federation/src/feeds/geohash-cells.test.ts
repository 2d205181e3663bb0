import { describe, expect, it } from 'vitest';
import { FEED_PRECISIONS, geohashCells } from './geohash-cells.js';

describe('geohashCells', () => {
  it('gives the cells of a known point at precisions 4 to 7 (57.64911, 10.40744 is u4pruydqqvj)', () => {
    expect(FEED_PRECISIONS).toEqual([4, 5, 6, 7]);
    expect(geohashCells(57.64911, 10.40744)).toEqual(['u4pr', 'u4pru', 'u4pruy', 'u4pruyd']);
  });

  it('works at the edges of the map', () => {
    expect(geohashCells(-90, -180)).toEqual(['0000', '00000', '000000', '0000000']);
    expect(geohashCells(90, 180)).toEqual(['zzzz', 'zzzzz', 'zzzzzz', 'zzzzzzz']);
  });

  it('refuses coordinates off the map, naming them', () => {
    expect(() => geohashCells(91, 0)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field: 'latitude' }) }),
    );
    expect(() => geohashCells(0, Number.NaN)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'longitude' }) }),
    );
  });
});
