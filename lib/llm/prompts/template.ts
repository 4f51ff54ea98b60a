export type PromptId = 'synthesis.properties' | 'synthesis.compose' | 'synthesis.filter' | 'study.rate';

/**
 * A versioned prompt kept in the repository. `system` and `user` hold `{{var}}` placeholders for `vars`.
 * Changing what a prompt asks means a new version: stored calls and provenance name the version they used.
 */
export interface PromptTemplate {
  id: PromptId;
  version: number;
  description: string;
  system: string;
  user: string;
  vars: string[];
}

/**
 * The line that closes every system prompt: names the prompt and version in the request itself, so a stored
 * call or a test endpoint can tell which prompt it is without the caller's bookkeeping.
 */
export const promptMarker = (id: PromptId, version: number): string => `(Prompt ${id}, version ${version}.)`;
