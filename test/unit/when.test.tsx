import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { When } from '../../components/when';

describe('a date on a page', () => {
  it('is the UTC text in the server\'s render, which the browser hydrates before writing it in the reader\'s locale', () => {
    expect(renderToString(<When at="2026-11-25T14:05:59Z" />))
      .toBe('<time dateTime="2026-11-25T14:05:59.000Z" title="25 Nov 2026, 14:05 UTC">25 Nov 2026, 14:05 UTC</time>');
    expect(renderToString(<When at={new Date(Date.UTC(2026, 10, 25, 23, 59))} day />))
      .toBe('<time dateTime="2026-11-25T23:59:00.000Z" title="25 Nov 2026">25 Nov 2026</time>');
    expect(renderToString(<When at="not a date" />)).toBe('unknown date');
  });
});
