import type { ReactNode } from 'react';
import { MATCH_END, MATCH_START } from '@/lib/kb/highlight';

/**
 * A search snippet with its matches marked. The server brackets matches with control characters that
 * no document can contain, so splitting on them is safe and nothing is ever parsed as HTML.
 */
export function Snippet({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let marked = false;
  text.split(/([\u0002\u0003])/).forEach((piece, i) => {
    if (piece === MATCH_START) marked = true;
    else if (piece === MATCH_END) marked = false;
    else if (piece) parts.push(marked ? <mark key={i} className="rounded bg-yellow-200 px-0.5">{piece}</mark> : piece);
  });
  return <>{parts}</>;
}
