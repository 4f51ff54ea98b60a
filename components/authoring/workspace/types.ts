import type { Evidence, JudgmentLabel } from '@/lib/authoring/drafts';
import type { Workspace } from '@/lib/authoring/workspace';
import type { Metapath } from '@/lib/kb/metapath';
import type { MarkedPassage } from './markable-document';

/** The relational requirement: one metapath from the seed, or several meeting at one type. */
export interface Requirement {
  paths: Metapath[];
}

/** What the author edits and autosave stores: the query and its two kinds of requirement. */
export interface DraftContent {
  text: string;
  requirement: Requirement | null;
  textSpans: MarkedPassage[];
}

/** The annotator's judgment of one entity, with the version the next change must name. */
export interface JudgmentState {
  label: JudgmentLabel;
  version: number;
  evidence: Evidence[];
}

/** An entity that can be judged: a candidate or one added by hand. */
export interface JudgedEntity {
  id: number;
  name: string;
  type: string;
}

export const LABELS: { label: JudgmentLabel; text: string; keys: string }[] = [
  { label: 'relevant', text: 'Relevant', keys: '1 / r' },
  { label: 'not_relevant', text: 'Not relevant', keys: '2 / n' },
  { label: 'unsure', text: 'Unsure', keys: '3 / u' },
];

/** The stored draft as the editor holds it; the server stores what the editor sent, so its shape is known. */
export function draftContent(draft: Workspace['draft']): DraftContent {
  const requirement = draft.requirement as Requirement | null;
  return {
    text: draft.text,
    requirement: requirement && Array.isArray(requirement.paths) && requirement.paths.length > 0 ? requirement : null,
    textSpans: draft.textSpans as MarkedPassage[],
  };
}

/** TanStack Query keys of the workspace and of its candidate pages. */
export const workspaceKey = (assignmentId: number) => ['assignment-workspace', assignmentId] as const;
export const candidatesKey = (assignmentId: number) => ['assignment-candidates', assignmentId] as const;
