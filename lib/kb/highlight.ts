/** Marks a matched word in a snippet. Control characters, so no document text can forge or inject them. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/**
 * Characters of a text a snippet is made from: `ts_headline` parses all it is given (about 4 MB a second), and
 * a long document (an Amazon product's reviews) runs to 200,000 characters.
 */
export const SNIPPET_WINDOW = 4_000;
/** The window starts this many characters before the first place one of the words is written, or at the start. */
export const SNIPPET_LEAD = 1_000;

/**
 * SQL for a snippet of `text`: up to two fragments around the words of `tsquery`, each marked with
 * MATCH_START and MATCH_END. `config` is the text search configuration the tsquery was made with. Only a
 * window of the text is read (SNIPPET_WINDOW characters), placed by where `words` (a text[] expression: the
 * words as tokenised, lower case; stop words of `english` left out) first occur as written in lower case or
 * capitalised (`strpos`, a plain substring search): usually the first match, else the text's start.
 */
export function headlineSql(config: 'english' | 'simple', text: string, tsquery: string, words: string): string {
  // Stop words are in no tsquery of the configuration: they do not place the window.
  const content = config === 'english' ? `WHERE to_tsvector('english', w.word) <> ''::tsvector` : '';
  const first = `(SELECT min(nullif(strpos(d.t, f.form), 0)) FROM unnest(${words}) w(word), LATERAL (VALUES (w.word), (initcap(w.word))) f(form) ${content})`;
  // The text is read out of its compressed storage once (a fresh value), not once per use.
  return `(SELECT ts_headline('${config}', substr(d.t, greatest(1, coalesce(${first}, 1) - ${SNIPPET_LEAD}), ${SNIPPET_WINDOW}), ${tsquery},
    'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}')
    FROM (SELECT ${text} || '' AS t OFFSET 0) d)`;
}
