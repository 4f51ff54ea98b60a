import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every browser test fails on an error or warning in the browser console only if it takes `test` from
// e2e/fixtures.ts: a spec taking Playwright's own would skip the check without anyone noticing.
const E2E = path.resolve(import.meta.dirname, '..', '..', 'e2e');
const specs = fs.readdirSync(E2E).filter((f) => f.endsWith('.spec.ts'));

describe('the end-to-end specs', () => {
  it('are there', () => {
    expect(specs.length).toBeGreaterThan(0);
  });

  for (const spec of specs) {
    it(`${spec} takes \`test\` from ./fixtures`, () => {
      const source = fs.readFileSync(path.join(E2E, spec), 'utf8');
      const imports = [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)]
        .map(([, names, from]) => ({ names: names!.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!), from }));
      const testFrom = imports.filter((i) => i.names.includes('test')).map((i) => i.from);
      expect(testFrom).toEqual(['./fixtures']);
    });
  }
});
