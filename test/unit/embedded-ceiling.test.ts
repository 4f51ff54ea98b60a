import { describe, expect, it } from 'vitest';
import { EMBEDDED_IMPORT_CEILING_BYTES, embeddedImportCeiling, embeddedImportRefusal } from '../../lib/ingest/embedded-ceiling';

const MB = 2 ** 20;

describe('the embedded database ceiling', () => {
  it('lets an input up to the ceiling through', () => {
    expect(embeddedImportRefusal(0)).toBeNull();
    expect(embeddedImportRefusal(EMBEDDED_IMPORT_CEILING_BYTES)).toBeNull();
    expect(embeddedImportRefusal(100 * MB, 100 * MB)).toBeNull();
  });

  it('refuses a larger input, naming both sizes and DATABASE_URL', () => {
    expect(embeddedImportRefusal(101 * MB, 100 * MB)).toMatch(/^This input is 101 MB; the embedded database takes imports of at most 100 MB\. Set DATABASE_URL/);
    expect(embeddedImportRefusal(EMBEDDED_IMPORT_CEILING_BYTES + 1)).toContain('DATABASE_URL');
  });
});

describe('the ceiling in force', () => {
  it('is the measured one unless SKB_EMBEDDED_IMPORT_MAX_MB says otherwise', () => {
    expect(embeddedImportCeiling({})).toBe(EMBEDDED_IMPORT_CEILING_BYTES);
    expect(embeddedImportCeiling({ SKB_EMBEDDED_IMPORT_MAX_MB: '' })).toBe(EMBEDDED_IMPORT_CEILING_BYTES);
    expect(embeddedImportCeiling({ SKB_EMBEDDED_IMPORT_MAX_MB: 'lots' })).toBe(EMBEDDED_IMPORT_CEILING_BYTES);
    expect(embeddedImportCeiling({ SKB_EMBEDDED_IMPORT_MAX_MB: '500' })).toBe(500 * MB);
  });
});
