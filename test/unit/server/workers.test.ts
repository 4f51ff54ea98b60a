import { describe, expect, it } from 'vitest';
import { EMBEDDED_DEFAULT_WORKERS, workerCount } from '../../../lib/server/workers';

describe('the number of app processes', () => {
  it('is one per core on PostgreSQL and at most two on the embedded database unless told', () => {
    expect(workerCount({ embedded: false, dev: false }, 8)).toBe(8);
    expect(workerCount({ embedded: true, dev: false }, 8)).toBe(EMBEDDED_DEFAULT_WORKERS);
    expect(workerCount({ embedded: true, dev: false }, 1)).toBe(1);
  });

  it('takes --workers before SKB_WORKERS, on either database', () => {
    expect(workerCount({ option: '3', env: '5', embedded: false, dev: false }, 8)).toBe(3);
    expect(workerCount({ env: '5', embedded: true, dev: false }, 8)).toBe(5);
    expect(workerCount({ env: '', embedded: false, dev: false }, 4)).toBe(4);
  });

  it('is one for the development server', () => {
    expect(workerCount({ option: '4', embedded: false, dev: true }, 8)).toBe(1);
  });

  it('refuses anything but a whole number from 1, naming where it came from', () => {
    expect(() => workerCount({ option: '0', embedded: false, dev: false })).toThrow(/--workers must be a whole number .* not "0"/);
    expect(() => workerCount({ option: '2.5', embedded: false, dev: false })).toThrow(/--workers/);
    expect(() => workerCount({ env: 'many', embedded: false, dev: false })).toThrow(/SKB_WORKERS must be .* not "many"/);
    expect(() => workerCount({ env: '100000', embedded: false, dev: false })).toThrow(/from 1 to 256/);
  });
});
