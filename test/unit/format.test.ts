import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatDateTime, formatDay, formatLocalDateTime } from '../../lib/format/date';
import { noun, plural, pluralOf } from '../../lib/format/plural';
import { textTable } from '../../lib/format/table';
import { idParam, parseWith } from '../../lib/http/api';
import { idTextSchema } from '../../lib/input';

const messageOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a failure');
};

describe('plurals', () => {
  it('puts the noun in the number the count needs', () => {
    expect(plural(1, 'entity')).toBe('1 entity');
    expect(plural(0, 'entity')).toBe('0 entities');
    expect(plural(2, 'edge')).toBe('2 edges');
    expect(plural(12_000, 'edge')).toBe('12,000 edges');
    expect(plural(1n, 'query')).toBe('1 query');
    expect(plural(3, 'match')).toBe('3 matches');
    expect(plural(2, 'key')).toBe('2 keys');
    expect(plural(2, 'criterion', 'criteria')).toBe('2 criteria');
    expect(noun(1, 'row')).toBe('row');
    expect(noun(1.5, 'second')).toBe('seconds');
    expect(pluralOf('study')).toBe('studies');
  });
});

describe('dates', () => {
  it('writes the month as a word and the time in UTC, whatever the time zone of the process', () => {
    expect(formatDay('2026-11-25T23:59:00Z')).toBe('25 Nov 2026');
    expect(formatDateTime('2026-11-25T14:05:59Z')).toBe('25 Nov 2026, 14:05 UTC');
    expect(formatDateTime(new Date(Date.UTC(2026, 8, 3, 0, 3)))).toBe('3 Sep 2026, 00:03 UTC');
    expect(formatDateTime(Date.UTC(2027, 0, 1, 9, 0))).toBe('1 Jan 2027, 09:00 UTC');
    expect(formatDay('not a date')).toBe('unknown date');
  });

  it('writes them in the reader\'s locale and time zone, the month as a word and the zone named', () => {
    const at = '2026-11-25T14:05:59Z';
    expect(formatLocalDateTime(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('25 Nov 2026, 14:05 UTC');
    const berlin = formatLocalDateTime(at, { locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(berlin).toContain('Nov');
    expect(berlin).toContain('15:05');
    expect(berlin).toMatch(/\b(MEZ|GMT\+1|UTC\+1)$/);
    expect(formatLocalDateTime('2026-07-25T14:05:00Z', { locale: 'de-DE', timeZone: 'Europe/Berlin' })).toMatch(/16:05 (MESZ|GMT\+2|UTC\+2)$/);
    const newYork = formatLocalDateTime(at, { locale: 'en-US', timeZone: 'America/New_York' });
    expect(newYork).toMatch(/^Nov 25, 2026, 09:05\s?AM EST$/);
    // The locales in the browser's order: the first Intl knows.
    expect(formatLocalDateTime(at, { locale: ['en-GB', 'de-DE'], timeZone: 'Asia/Tokyo' })).toBe('25 Nov 2026, 23:05 GMT+9');
  });

  it('writes a day without its time, on the day it is in the reader\'s time zone', () => {
    expect(formatLocalDateTime('2026-11-25T23:59:00Z', { locale: 'en-GB', timeZone: 'UTC', day: true })).toBe('25 Nov 2026');
    expect(formatLocalDateTime('2026-11-25T23:59:00Z', { locale: 'de-DE', timeZone: 'Europe/Berlin', day: true })).toMatch(/^26\. Nov\.? 2026$/);
  });

  it('says an invalid date is unknown, and falls back to UTC for a locale or time zone Intl does not know', () => {
    expect(formatLocalDateTime('not a date', { locale: 'en-GB', timeZone: 'UTC' })).toBe('unknown date');
    expect(formatLocalDateTime(Number.NaN, { day: true })).toBe('unknown date');
    expect(formatLocalDateTime('2026-11-25T14:05:59Z', { locale: 'en-GB', timeZone: 'Mars/Olympus_Mons' })).toBe('25 Nov 2026, 14:05 UTC');
    expect(formatLocalDateTime('2026-11-25T14:05:59Z', { locale: 'not_a locale', timeZone: 'UTC', day: true })).toBe('25 Nov 2026');
  });
});

describe('text tables', () => {
  it('keeps headers apart however wide they are, numbers aligned right', () => {
    expect(textTable(['split', 'queries', 'Hit@5', 'Recall@20'], [['train', '1200', '0.5123', '0.7000'], ['all', '9', '-', '-']],
      { align: ['left', 'right', 'right', 'right'], indent: '  ' })).toEqual([
      '  split  queries   Hit@5  Recall@20',
      '  train     1200  0.5123     0.7000',
      '  all          9       -          -',
    ]);
  });
});

describe('validation messages', () => {
  it('says what is wrong with a whole value once, not twice', () => {
    expect(messageOf(() => idParam('abc', 'entity id'))).toBe('Invalid entity id: must be a positive integer');
    expect(messageOf(() => idParam('99999999999', 'run id'))).toBe('Invalid run id: must be at most 2147483647');
  });

  it('puts zod\'s defaults in plain words and names each field', () => {
    const schema = z.object({
      entity: idTextSchema,
      hops: z.coerce.number().int().min(1).max(3),
      dir: z.enum(['both', 'out', 'in']),
      q: z.string().trim().min(1),
      tags: z.array(z.string()).max(2),
      name: z.string(),
    });
    expect(messageOf(() => parseWith(schema, { entity: 'x', hops: '9', dir: 'nope', q: ' ', tags: ['a', 'b', 'c'] }, 'query'))).toBe(
      'Invalid query: entity: must be a positive integer; hops: must be at most 3; dir: must be one of both, out, in; '
      + 'q: must not be empty; tags: must have at most 2 values; name: is required');
  });

  it('reports a problem the schema raises twice only once', () => {
    const schema = z.object({ a: z.union([z.literal('x'), z.literal('y')]) });
    expect(messageOf(() => parseWith(schema, { a: 'z' }, 'body'))).toBe('Invalid body: a: is not valid');
  });
});
