/**
 * Whether `text` is a non-negative integer written the one way STaRK files write it: decimal digits, no
 * sign, no leading zero (except "0" itself). Ids are compared as text, so "007" would never match "7".
 */
export function isCanonicalInteger(text: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(text);
}
