/** What an annotator may flag in an audited query's text (kept apart so the browser can import it). */
export const AUDIT_FLAGS = ['ambiguous', 'leaks_answer', 'unanswerable'] as const;
export type AuditFlag = (typeof AUDIT_FLAGS)[number];
