import type { Dimension } from '@/lib/studies/dimensions';
import type { ModelRaterResult } from '@/lib/studies/model-rater-results';
import type { DimensionResult } from '@/lib/studies/results';
import { plural } from '@/lib/format/plural';
import { fmtCount } from '../queries/format';
import { DistributionChart } from './distribution-chart';
import { fmtStat } from './result-format';

/** The people's series beside the model's in its charts. */
const PEOPLE = 'people';

/**
 * The model raters' results, each a source of its own: per dimension the model's mean and distribution
 * (beside the people's, for comparison) and its agreement with the human median. None of it is counted in
 * the human figures.
 */
export function ModelRaterResults({ raters, human, definitions }: { raters: ModelRaterResult[]; human: DimensionResult[]; definitions: Map<string, Dimension> }) {
  return (
    <section className="space-y-4 rounded-lg border border-violet-200 bg-violet-50/40 p-4" aria-labelledby="model-raters-heading" data-testid="model-rater-results">
      <div>
        <h2 id="model-raters-heading" className="text-lg font-semibold">Model raters</h2>
        <p className="text-sm text-slate-600">
          Ratings by language models, kept apart: they are not included in the human figures above (participants, ratings, rates,
          agreement, items). Agreement with the human median is Krippendorff’s α between the model’s rating and the median of the
          people’s ratings of the same item (the lower middle one for an even count), ordinal for scales and nominal for yes / no,
          over the n items both rated.
        </p>
      </div>
      {raters.map((r, i) => (
        <div key={r.model} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="model-rater-result">
          <h3 className="break-all font-medium"><span className="font-mono">{r.model}</span></h3>
          <p className="text-sm text-slate-600" data-testid="model-rater-counts">
            {plural(r.ratings, 'rating')} over {fmtCount(r.done)} of {plural(r.total, 'item')}{r.failures ? `, ${fmtCount(r.failures)} failed` : ''}
            {r.status === 'RUNNING' ? ' (still rating)' : ''}
          </p>
          <div className="grid gap-4 xl:grid-cols-2">
            {r.dimensions.map((d) => {
              const people = human.find((h) => h.key === d.key);
              const definition = definitions.get(d.key);
              const a = d.agreementWithHumans;
              return (
                <div key={d.key} className="min-w-0 space-y-1" data-testid={`model-dimension-${d.key}`}>
                  <h4 className="text-sm font-medium">{d.label}</h4>
                  <p className="text-sm">
                    Mean <strong className="tabular-nums" data-testid="model-mean">{fmtStat(d.summary.mean)}</strong>
                    <span className="text-slate-500"> over {plural(d.summary.n, 'rating')}</span>
                  </p>
                  <p className="text-sm" data-testid="model-agreement">
                    Agreement with the human median: α = <span className="tabular-nums">{fmtStat(a.alpha, 3)}</span>, n = <span className="tabular-nums">{fmtCount(a.units)}</span>
                  </p>
                  <DistributionChart anchors={definition && definition.kind !== 'text' ? definition.anchors : {}} dimension={{
                    key: `model-${i}-${d.key}`,
                    label: `${d.label} by ${r.model}`,
                    points: d.points,
                    bySource: [...(people ? [{ source: PEOPLE, ...people.overall }] : []), { source: r.model, ...d.summary }],
                  }} />
                </div>
              );
            })}
          </div>
        </div>
      ))}
    </section>
  );
}
