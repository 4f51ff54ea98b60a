import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { modelRatingsCsv, participantItems, participantsCsv, participantsJsonl, rawCsv, rawJsonl, rawModelRatings, rawRatings, summaryCsv, summaryMarkdown } from '@/lib/studies/export';
import { studyReport } from '@/lib/studies/report';

const FORMATS = {
  'ratings-csv': { ext: 'ratings.csv', type: 'text/csv' },
  'ratings-jsonl': { ext: 'ratings.jsonl', type: 'application/jsonl' },
  'summary-csv': { ext: 'summary.csv', type: 'text/csv' },
  'summary-md': { ext: 'summary.md', type: 'text/markdown' },
  'model-ratings-csv': { ext: 'model-ratings.csv', type: 'text/csv' },
  'participants-csv': { ext: 'participants.csv', type: 'text/csv' },
  'participants-jsonl': { ext: 'participants.jsonl', type: 'application/jsonl' },
} as const;
const formatSchema = z.enum(Object.keys(FORMATS) as [keyof typeof FORMATS, ...(keyof typeof FORMATS)[]]);

/**
 * Downloads: raw ratings (CSV, JSONL), participants with their items, platform ids, outcomes and times (CSV,
 * JSONL), the summary table (CSV, Markdown) or the model raters' ratings (CSV).
 */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  const query = new URL(req.url).searchParams;
  const format = parseWith(formatSchema, query.get('format'), 'format');
  let body: string;
  if (format === 'ratings-csv' || format === 'ratings-jsonl') {
    const rows = await rawRatings(pool(), study.id);
    body = format === 'ratings-csv' ? rawCsv(rows) : rawJsonl(rows);
  } else if (format === 'participants-csv' || format === 'participants-jsonl') {
    const rows = await participantItems(pool(), study.id);
    body = format === 'participants-csv' ? participantsCsv(rows) : participantsJsonl(rows);
  } else if (format === 'model-ratings-csv') {
    body = modelRatingsCsv(await rawModelRatings(pool(), study.id));
  } else {
    const report = await studyReport(pool(), study.id, { excludeFailed: query.get('excludeFailed') === '1' });
    body = format === 'summary-csv' ? summaryCsv(report) : summaryMarkdown(report);
  }
  return new Response(body, {
    headers: { 'content-type': `${FORMATS[format].type}; charset=utf-8`, 'content-disposition': `attachment; filename="study-${study.id}-${FORMATS[format].ext}"` },
  });
});
