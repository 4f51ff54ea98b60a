import { IngestIssue } from '../source';

/** An id as text: strings are trimmed, integers accepted; anything else is not an id. */
export function idText(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return null;
}

export function stringList(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return value as string[];
}

/** Properties given as a JSON object in a text column; empty means none. */
export function propertiesColumn(text: string | undefined, file: string, line: number): Record<string, unknown> | null | IngestIssue {
  if (text === undefined || text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  return new IngestIssue(file, line, 'properties must be a JSON object');
}
