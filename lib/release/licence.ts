/**
 * A set's licence, as it is written free-form on the set, read as a known licence where it names one: the
 * Hugging Face card wants one of the Hub's licence ids, Croissant a licence URL (SPDX's page).
 */
export interface KnownLicence {
  /** The Hugging Face Hub's id ("other" or "unknown" when it names none). */
  hf: string;
  /** SPDX's page for it, or null. */
  url: string | null;
  /** As written on the set; "" when not stated. */
  text: string;
}

/** Hub id → SPDX id, for the licences datasets commonly use. */
const LICENCES: Record<string, string> = {
  'apache-2.0': 'Apache-2.0', mit: 'MIT', 'bsd-2-clause': 'BSD-2-Clause', 'bsd-3-clause': 'BSD-3-Clause',
  'gpl-3.0': 'GPL-3.0-only', 'lgpl-3.0': 'LGPL-3.0-only', 'mpl-2.0': 'MPL-2.0', unlicense: 'Unlicense',
  'cc0-1.0': 'CC0-1.0', 'cc-by-3.0': 'CC-BY-3.0', 'cc-by-4.0': 'CC-BY-4.0', 'cc-by-sa-3.0': 'CC-BY-SA-3.0',
  'cc-by-sa-4.0': 'CC-BY-SA-4.0', 'cc-by-nc-4.0': 'CC-BY-NC-4.0', 'cc-by-nc-sa-4.0': 'CC-BY-NC-SA-4.0',
  'cc-by-nd-4.0': 'CC-BY-ND-4.0', 'cc-by-nc-nd-4.0': 'CC-BY-NC-ND-4.0', 'odc-by': 'ODC-By-1.0', odbl: 'ODbL-1.0',
  pddl: 'PDDL-1.0', 'cdla-permissive-2.0': 'CDLA-Permissive-2.0', 'cdla-sharing-1.0': 'CDLA-Sharing-1.0',
};

/** Matches "CC-BY-4.0", "cc by 4.0", "Apache-2.0", "MIT", "ODbL-1.0" ... by their Hub or SPDX id. */
export function knownLicence(written: string): KnownLicence {
  const text = written.trim();
  if (!text) return { hf: 'unknown', url: null, text };
  const key = text.toLowerCase().replace(/[\s_]+/g, '-');
  const hf = Object.keys(LICENCES).find((id) => id === key || LICENCES[id]!.toLowerCase() === key);
  return hf ? { hf, url: `https://spdx.org/licenses/${LICENCES[hf]}.html`, text } : { hf: 'other', url: null, text };
}
