import { EvidencePicker } from './evidence-picker';
import type { JudgedEntity } from './types';
import type { Judgments } from './use-judgments';

/** The evidence picker shown under a candidate judged relevant while it is cited (nothing otherwise, or when read-only). */
export function candidateEvidence(kbSlug: string, judgments: Judgments, editable: boolean, onClose: () => void) {
  return function CandidateEvidence(e: JudgedEntity) {
    const state = judgments.stateOf(e.id);
    return state?.label === 'relevant' && editable && (
      <EvidencePicker kbSlug={kbSlug} entity={e} evidence={state.evidence} onClose={onClose}
        onChange={(cited) => judgments.judge(e.id, 'relevant', { evidence: cited })} />
    );
  };
}
