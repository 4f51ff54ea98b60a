import { typeColour } from '@/lib/kb/type-colours';

/**
 * Which colour stands for which entity type. `kbTypes` is the knowledge base's whole type list (what picks the
 * colours); `types`, when given, the ones to list (those the view shows).
 */
export function TypeLegend({ kbTypes, types }: { kbTypes: readonly string[]; types?: readonly string[] }) {
  const listed = [...(types ?? kbTypes)].sort();
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-slate-600" aria-label="Legend: entity type colours" data-testid="graph-legend">
      {listed.map((t) => {
        const colour = typeColour(kbTypes, t);
        return (
          <li key={t} className="flex items-center gap-1" data-type={t} data-colour={colour}>
            <span className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: colour }} aria-hidden />
            {t}
          </li>
        );
      })}
    </ul>
  );
}

/** An entity type as a chip, with its type colour as a dot so the name stays readable in either theme. */
export function TypeBadge({ kbTypes, type, className = '', testId = 'type-badge' }: { kbTypes: readonly string[] | undefined; type: string; className?: string; testId?: string }) {
  const colour = kbTypes ? typeColour(kbTypes, type) : undefined;
  return (
    <span data-testid={testId} data-type={type} data-colour={colour}
      className={`inline-flex items-center gap-1 rounded-full border border-slate-200 px-1.5 text-xs text-slate-600 ${className}`}>
      <span className="inline-block h-2 w-2 shrink-0 rounded-full" style={{ background: colour ?? 'transparent' }} aria-hidden />
      {type}
    </span>
  );
}
