import { apiRoute } from '@/lib/http/api';
import { listPrompts } from '@/lib/llm/prompts';

/** The versioned prompt templates the LLM steps use, as kept in the repository. */
export const GET = apiRoute('queries:manage', async () => ({ items: listPrompts() }));
