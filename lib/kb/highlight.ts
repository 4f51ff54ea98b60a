/** Marks a matched word in a snippet. Control characters, so no document text can forge or inject them. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/**
 * SQL for a snippet of `text`: up to two fragments around the words of `tsquery`, each marked with
 * MATCH_START and MATCH_END. `config` is the text search configuration the tsquery was made with.
 */
export function headlineSql(config: 'english' | 'simple', text: string, tsquery: string): string {
  return `ts_headline('${config}', ${text}, ${tsquery},
    'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}')`;
}
