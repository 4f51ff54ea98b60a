import { Fragment, type ReactNode } from 'react';

/**
 * A small Markdown renderer for the dataset cards the server generates (lib/queries/dataset-card.ts):
 * headings, pipe tables, bullet lists, paragraphs, `code` and **bold**. Anything else shows as text. It builds
 * React elements, never HTML strings, so the notes a curator wrote cannot inject markup.
 */
export function MarkdownText({ text }: { text: string }) {
  return <div className="space-y-3 text-sm">{blocks(text.split('\n')).map((b, i) => <Fragment key={i}>{b}</Fragment>)}</div>;
}

const TABLE_RULE = /^\|(\s*:?-+:?\s*\|)+$/;

function cells(line: string): string[] {
  return line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
}

function blocks(lines: string[]): ReactNode[] {
  const out: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (!line.trim()) {
      i++;
    } else if (heading) {
      const level = heading[1]!.length;
      // The card sits under the page's own h1 and h2: its headings start at h3.
      const Tag = level === 1 ? 'h3' : level === 2 ? 'h4' : 'h5';
      out.push(<Tag className={level === 1 ? 'text-lg font-semibold' : 'font-medium'}>{inline(heading[2]!)}</Tag>);
      i++;
    } else if (line.startsWith('|') && TABLE_RULE.test(lines[i + 1]?.trim() ?? '')) {
      const head = cells(line);
      const alignRight = cells(lines[i + 1]!).map((c) => c.endsWith(':'));
      const rows: string[][] = [];
      for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(cells(lines[i]!));
      out.push(
        <table className="w-full">
          {/* The card's key-value table has an empty header row: no header then. */}
          {head.some(Boolean) && (
            <thead className="text-left text-slate-600">
              <tr>{head.map((h, k) => <th key={k} scope="col" className={`py-1 pr-3 ${alignRight[k] ? 'text-right' : ''}`}>{inline(h)}</th>)}</tr>
            </thead>
          )}
          <tbody>
            {rows.map((r, j) => (
              <tr key={j} className="border-t border-slate-100">
                {r.map((c, k) => <td key={k} className={`py-1 pr-3 ${alignRight[k] ? 'text-right tabular-nums' : ''}`}>{inline(c)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>,
      );
    } else if (/^[-*]\s/.test(line)) {
      const items: string[] = [];
      for (; i < lines.length && /^[-*]\s/.test(lines[i]!); i++) items.push(lines[i]!.slice(2));
      out.push(<ul className="list-disc space-y-1 pl-5">{items.map((t, k) => <li key={k}>{inline(t)}</li>)}</ul>);
    } else {
      const para: string[] = [];
      for (; i < lines.length && lines[i]!.trim() && !/^(#{1,4}\s|[-*]\s|\|)/.test(lines[i]!); i++) para.push(lines[i]!);
      // A line no rule above takes (a lone "|" line) is shown as it is, so the loop always moves on.
      if (!para.length) para.push(lines[i++]!);
      out.push(<p>{inline(para.join(' '))}</p>);
    }
  }
  return out;
}

/** `code` and **bold** inside a line. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).filter(Boolean).map((part, k) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={k} className="rounded bg-slate-100 px-1 text-xs">{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return <strong key={k}>{part.slice(2, -2)}</strong>;
    return <Fragment key={k}>{part}</Fragment>;
  });
}
