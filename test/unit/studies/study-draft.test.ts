import { describe, expect, it } from 'vitest';
import { ApiError } from '@/components/queries/api';
import { fieldErrorsOf, initialDraft, keyFromLabel, newDimension, studyBody } from '@/components/studies/study-draft';
import { studyInputSchema } from '@/lib/studies/create';

describe('the study form\'s draft', () => {
  it('turns a filled-in draft into a body the server schema accepts', () => {
    const draft = initialDraft('Rate these.');
    draft.name = 'pilot';
    draft.sources[0]!.querySet = 'questions';
    draft.sources[0]!.release = '2';
    draft.itemsPerParticipant = '20';
    draft.participantsPerItem = '3';
    draft.checks = [{ uid: 9, text: ' Choose 1 ', dimensionUid: draft.dimensions[0]!.uid, accept: [1] }];
    const result = studyBody(draft);
    if (!('body' in result)) throw new Error(JSON.stringify(result.errors));
    expect(result.body).toMatchObject({ name: 'pilot', sources: [{ querySet: 'questions', release: 2 }], itemsPerParticipant: 20, participantsPerItem: 3,
      attentionChecks: [{ text: 'Choose 1', dimension: 'naturalness', accept: [1] }], opensAt: null });
    expect(studyInputSchema.safeParse(result.body).success).toBe(true);
  });

  it('reports what it can see before sending, by field path', () => {
    const draft = initialDraft('');
    draft.name = 'no spaces allowed';
    draft.itemsPerParticipant = '0';
    draft.checks = [{ uid: 9, text: '', dimensionUid: null, accept: [] }];
    const result = studyBody(draft);
    expect('errors' in result && Object.keys(result.errors).sort()).toEqual(
      ['attentionChecks.0.dimension', 'attentionChecks.0.text', 'itemsPerParticipant', 'name', 'sources.0.querySet'].sort());
  });

  it('maps the server\'s refusals to fields', () => {
    expect(fieldErrorsOf(new ApiError(400, 'Invalid body', [{ field: 'dimensions.1.key', message: 'a lower-case key' }]))).toEqual({ 'dimensions.1.key': 'a lower-case key' });
    expect(fieldErrorsOf(new ApiError(400, 'sources.0.release: "q" has no release 3', undefined))).toEqual({ 'sources.0.release': '"q" has no release 3' });
    expect(fieldErrorsOf(new ApiError(409, 'A study named "x" exists on this knowledge base', undefined))).toEqual({ name: 'A study named "x" exists on this knowledge base' });
  });

  it('derives keys from labels and numbers new dimensions past the taken ones', () => {
    expect(keyFromLabel('Überall Relevance!')).toBe('uberall_relevance');
    expect(keyFromLabel('42')).toBe('dimension');
    expect(newDimension('binary', ['custom_1'])).toMatchObject({ key: 'custom_2', kind: 'binary', anchors: { 0: 'No', 1: 'Yes' } });
  });
});
