'use client';

import { points } from '@/lib/studies/dimensions';
import { shortcutKeys, type PointDimension } from './model';

/** A radio's name, unique on the page: the keyboard handler finds a scale's radios by it. */
export const radioName = (itemId: number, dimension: string) => `item-${itemId}-${dimension}`;

/**
 * One scale (or binary) dimension as a radio group: each point with its anchor label. Arrow keys move
 * within the group (native radios), Tab leaves it; number keys are handled by the rating screen.
 */
export function ScaleInput({ itemId, dimension, value, disabled, onChoose }: {
  itemId: number;
  dimension: PointDimension;
  value: number | null;
  disabled: boolean;
  onChoose: (value: number) => void;
}) {
  const name = radioName(itemId, dimension.key);
  const keyOf = new Map([...shortcutKeys(dimension)].map(([key, point]) => [point, key]));
  return (
    <div role="radiogroup" aria-labelledby={`${name}-label`} aria-describedby={dimension.question ? `${name}-question` : undefined}
      aria-required={dimension.required} data-scale={dimension.key} className="space-y-1">
      <p id={`${name}-label`} className="font-medium">
        {dimension.label}
        {!dimension.required && <span className="font-normal text-slate-500"> (optional)</span>}
      </p>
      {dimension.question && <p id={`${name}-question`} className="text-sm text-slate-600">{dimension.question}</p>}
      <div className="flex flex-wrap gap-2">
        {points(dimension).map((p) => {
          const anchor = dimension.anchors[String(p)];
          // A scale shows its numbers; a binary dimension its two labels, with their keys beside them.
          const showNumber = dimension.kind === 'scale';
          const key = keyOf.get(p);
          const keyHint = key !== undefined && (!showNumber || key !== String(p));
          return (
            <label key={p}
              className="flex min-w-14 cursor-pointer flex-col sm:min-w-20 has-[:disabled]:cursor-default has-[:disabled]:hover:bg-white has-[:checked:disabled]:hover:bg-blue-700 items-center rounded border border-slate-300 bg-white px-3 py-1.5 text-center text-sm hover:bg-blue-50 has-[:checked]:border-blue-700 has-[:checked]:bg-blue-700 has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-400 has-[:focus-visible]:ring-offset-1">
              <input type="radio" name={name} value={p} checked={value === p} disabled={disabled} onChange={() => onChoose(p)} className="sr-only" />
              {showNumber && <span className="text-base font-semibold tabular-nums">{p}</span>}
              {/* The space separates the number from its label in the radio's accessible name ("4 Agree"). */}
              {showNumber && anchor && ' '}
              {(anchor || !showNumber) && <span className="text-xs">{anchor || p}</span>}
              {keyHint && <kbd aria-hidden className="mt-0.5 rounded border border-current px-1 text-[10px] opacity-70">{key}</kbd>}
            </label>
          );
        })}
      </div>
    </div>
  );
}
