/**
 * The leak check: a query must not name its seed entity. A name or alias counts as named when its words
 * appear in the query consecutively, compared case-, accent- and punctuation-insensitively ("Crohn's
 * disease" is found in "crohns Disease?"), on word boundaries ("IL10" is not found in "IL10RB").
 */

export interface LeakMatch {
  /** The name or alias that was found. */
  name: string;
  /** Where in the query, as UTF-16 offsets into the text as typed. */
  start: number;
  end: number;
}

interface Word {
  norm: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu;

/** Lower case, accents and apostrophes dropped: the form words are compared in. */
function normalise(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').replace(/['\u2019]/g, '').toLowerCase();
}

function words(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({ norm: normalise(m[0]), start: m.index, end: m.index + m[0].length }));
}

/** Every place the query names one of `names` (the seed's name and aliases), in text order. */
export function findLeaks(query: string, names: readonly string[]): LeakMatch[] {
  const text = words(query);
  const matches: LeakMatch[] = [];
  for (const name of new Set(names.map((n) => n.trim()).filter(Boolean))) {
    const target = words(name).map((w) => w.norm);
    if (!target.length) continue;
    for (let i = 0; i + target.length <= text.length; i++) {
      if (target.every((t, j) => text[i + j]!.norm === t)) {
        matches.push({ name, start: text[i]!.start, end: text[i + target.length - 1]!.end });
      }
    }
  }
  return matches.sort((a, b) => a.start - b.start || b.end - a.end);
}
