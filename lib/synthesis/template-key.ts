import type { MetapathStep } from '../kb/metapath';
import type { TemplateBranch } from './types';

/**
 * How a template key is written, read without a schema (so stored provenance can be read back after the schema
 * changed): "disease -[indication]<- drug -[target]-> gene/protein", branches joined by " & "; `->` follows
 * edges forwards, `<-` backwards.
 */

const ARROW = /\s+-\[([^\]]*)\](->|<-)\s+/;

/** A branch as written in a key. */
export function branchKey(branch: TemplateBranch): string {
  return branch.startType + branch.steps.map((s) => ` -[${s.relation}]${s.direction === 'out' ? '->' : '<-'} ${s.targetType}`).join('');
}

/** One branch of a key, or why it is not one. */
export function readBranch(text: string): TemplateBranch | string {
  const parts = text.trim().split(ARROW);
  if (parts.length < 4 || parts.length % 3 !== 1 || parts.some((p) => !p.trim())) {
    return `"${text.trim()}" is not a path (write it as "type -[relation]-> type", "-[relation]<-" for an edge walked backwards)`;
  }
  const steps: MetapathStep[] = [];
  for (let i = 1; i < parts.length; i += 3) {
    steps.push({ relation: parts[i]!, direction: parts[i + 1] === '->' ? 'out' : 'in', targetType: parts[i + 2]!.trim() });
  }
  return { startType: parts[0]!.trim(), steps };
}

/** The branches of a key, or null when it does not read as one. */
export function readTemplateKey(key: string): TemplateBranch[] | null {
  const branches = key.split(' & ').map(readBranch);
  return branches.every((b): b is TemplateBranch => typeof b !== 'string') ? branches : null;
}
