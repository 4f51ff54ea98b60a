import { QUERY_FORMATS } from '../queries/types';

/** What a release download can hold: the query formats, and `hf`, the folder ready for Hugging Face. */
export const RELEASE_FORMATS = [...QUERY_FORMATS, 'hf'] as const;
export type ReleaseFormat = (typeof RELEASE_FORMATS)[number];
export const HF_FOLDER = 'hf';
