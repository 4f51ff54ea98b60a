import { exportUrl, type ExportFormat } from './api';

const LINK = 'rounded border border-slate-300 px-3 py-1.5 text-blue-700 hover:bg-blue-50';

/** Downloads of the raw ratings and of the summary table; the summary follows the page's exclusion choice. */
export function ExportLinks({ studyId, excludeFailed, modelRaters }: { studyId: number; excludeFailed: boolean; modelRaters: boolean }) {
  const link = (format: ExportFormat, label: string, exclusion: boolean) => (
    <a href={exportUrl(studyId, format, exclusion)} download className={LINK}>{label}</a>
  );
  return (
    <div className="space-y-2 text-sm" data-testid="exports">
      <div className="flex flex-wrap gap-2">
        {link('summary-md', 'Summary (Markdown)', excludeFailed)}
        {link('summary-csv', 'Summary (CSV)', excludeFailed)}
        {link('ratings-csv', 'Ratings (CSV)', false)}
        {link('ratings-jsonl', 'Ratings (JSONL)', false)}
        {link('participants-csv', 'Participants (CSV)', false)}
        {link('participants-jsonl', 'Participants (JSONL)', false)}
        {modelRaters && link('model-ratings-csv', 'Model ratings (CSV)', false)}
      </div>
      <p className="text-xs text-slate-500">
        The summary is the table above{excludeFailed ? ', without the participants who failed an attention check' : ''}. The raw ratings hold every
        answer, attention checks included, with the participant’s number, so exclusions can be redone from them. The
        participant files have a row per participant and item: platform ids, outcome and its code, and the seconds spent on each item.
        {modelRaters && ' The model ratings are a file of their own: each model’s values and reasons, its failures, and the LLM call of each.'}
      </p>
    </div>
  );
}
