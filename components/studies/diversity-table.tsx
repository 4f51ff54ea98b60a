import type { StudyReport } from '@/lib/studies/report';
import { fmtCount } from '../queries/format';
import { fmtStat } from './result-format';

/**
 * Diversity measured on each source set as a whole (all its queries, not only the rated sample): the entropy
 * of its words, its type-token ratio and its near-duplicate pairs, beside what the raters said.
 */
export function DiversityTable({ diversity }: { diversity: StudyReport['diversity'] }) {
  return (
    <div className="space-y-2 text-sm" data-testid="set-diversity">
      <h3 className="font-medium">Measured on the sets</h3>
      <div className="table-scroll">
        <table className="w-full">
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 text-left">Source</th><th scope="col" className="text-right">Queries</th>
              <th scope="col" className="text-right">Entropy (bits)</th><th scope="col" className="text-right">Type-token ratio</th>
              <th scope="col" className="text-right">Near-duplicate pairs</th>
            </tr>
          </thead>
          <tbody>
            {diversity.map((s) => (
              <tr key={s.source} className="border-t border-slate-100" data-testid={`diversity-${s.source}`}>
                <th scope="row" className="py-1 text-left font-mono font-normal">{s.source}</th>
                <td className="text-right tabular-nums">{fmtCount(s.queries)}</td>
                <td className="text-right tabular-nums">{fmtStat(s.entropyBits)}</td>
                <td className="text-right tabular-nums">{fmtStat(s.typeTokenRatio, 3)}</td>
                <td className="text-right tabular-nums">{fmtCount(s.nearDuplicatePairs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">
        Entropy of the word frequencies and distinct words per word, over every query of the set; near-duplicates share at least
        70% of their word 3-grams (Jaccard).
      </p>
      {diversity.filter((s) => s.examples.length).map((s) => (
        <details key={s.source}>
          <summary className="cursor-pointer">Most similar pairs in <span className="font-mono">{s.source}</span></summary>
          <ul className="mt-1 space-y-1">
            {s.examples.slice(0, 5).map((e) => (
              <li key={`${e.a.id}:${e.b.id}`} className="rounded bg-slate-50 px-2 py-1">
                <span className="text-xs text-slate-500">{fmtStat(e.similarity)}</span> “{e.a.text}” / “{e.b.text}”
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
