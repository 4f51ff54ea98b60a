import type { MetapathStep } from '../kb/metapath';
import type { TemplateBranch } from './types';

/**
 * How a relation reads between two entities: `active` said of the side that does it ("a drug that targets
 * …"), `passive` said of the other side ("a gene/protein targeted by …"). Which side is active: the one whose
 * type matches `activeType`, else the edge's source. Symmetric relations read the same both ways.
 */
interface RelationWords {
  active: string;
  passive: string;
  activeType?: RegExp;
}

const symmetric = (words: string): RelationWords => ({ active: words, passive: words });
const DRUG = /drug/i;

/** STaRK's three knowledge bases (PrimeKG's display relations, Amazon's and MAG's edge types), by lexiconKey. */
const LEXICON: Record<string, RelationWords> = {
  'target': { active: 'that targets', passive: 'targeted by', activeType: DRUG },
  'enzyme': { active: 'metabolised by', passive: 'acting as an enzyme for', activeType: DRUG },
  'carrier': { active: 'carried by', passive: 'acting as a carrier for', activeType: DRUG },
  'transporter': { active: 'transported by', passive: 'acting as a transporter for', activeType: DRUG },
  'indication': { active: 'indicated for', passive: 'treated by', activeType: DRUG },
  'contraindication': { active: 'contraindicated for', passive: 'with a contraindication for', activeType: DRUG },
  'off-label use': { active: 'used off-label for', passive: 'treated off-label with', activeType: DRUG },
  'side effect': { active: 'with the side effect', passive: 'that is a side effect of', activeType: DRUG },
  'associated with': symmetric('associated with'),
  'interacts with': symmetric('that interacts with'),
  'ppi': symmetric('that interacts with'),
  'linked to': symmetric('linked to'),
  'synergistic interaction': symmetric('with a synergistic interaction with'),
  'parent-child': symmetric('related as parent or child to'),
  'phenotype present': { active: 'with the phenotype', passive: 'that is a phenotype of', activeType: /disease/i },
  'phenotype absent': { active: 'without the phenotype', passive: 'that is absent in', activeType: /disease/i },
  'expression present': { active: 'expressed in', passive: 'that expresses', activeType: /gene|protein/i },
  'expression absent': { active: 'not expressed in', passive: 'that does not express', activeType: /gene|protein/i },
  'also buy': symmetric('bought together with'),
  'also view': symmetric('viewed together with'),
  'has brand': { active: 'from the brand', passive: 'that makes' },
  'has category': { active: 'in the category', passive: 'that contains' },
  'has color': { active: 'available in the colour', passive: 'that is the colour of' },
  'author writes paper': { active: 'who wrote', passive: 'written by' },
  'paper cites paper': { active: 'that cites', passive: 'cited by' },
  'paper has topic field of study': { active: 'about', passive: 'that is a topic of' },
  'author affiliated with institution': { active: 'affiliated with', passive: 'with an author affiliated with' },
};

/** A type as prose: "biological_process" reads "biological process". */
export function typeWords(type: string): string {
  return type.replace(/_+/g, ' ').trim();
}

export function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** Relations are looked up case- and underscore-insensitively: "has_brand" and "Has brand" are one. */
const lexiconKey = (relation: string) => relation.toLowerCase().replace(/_+/g, ' ').trim();

/** A relation the lexicon does not know: its name as written ("a___cites___b" reads "cites"), quoted. */
function fallbackWords(relation: string): RelationWords {
  const name = (relation.split('___')[1] ?? relation).replace(/_+/g, ' ').trim();
  const link = `${/^[aeiou]/i.test(name) ? 'an' : 'a'} “${name}” link`;
  return { active: `with ${link} to`, passive: `with ${link} from` };
}

/**
 * How the entity a step reaches (`near`, nearer the answer) relates to the one it came from (`far`): the
 * step walks an edge far→near (out) or near→far (in, walked backwards).
 */
export function stepWords(step: MetapathStep, fromType: string): string {
  const words = LEXICON[lexiconKey(step.relation)] ?? fallbackWords(step.relation);
  const nearIsSource = step.direction === 'in';
  const typed = words.activeType;
  const nearActive = typed && typed.test(step.targetType) !== typed.test(fromType) ? typed.test(step.targetType) : nearIsSource;
  return nearActive ? words.active : words.passive;
}

/** The placeholder of branch `i`'s seed in a template's words. */
export const seedSlot = (i: number) => `{seed ${i + 1}}`;

/** A branch read from the answer back to its seed: "targeted by a drug indicated for {seed 1}". */
export function branchWords(branch: TemplateBranch, slot: string): string {
  const types = [branch.startType, ...branch.steps.map((s) => s.targetType)];
  const parts: string[] = [];
  for (let i = branch.steps.length - 1; i >= 0; i--) {
    parts.push(stepWords(branch.steps[i]!, types[i]!));
    parts.push(i > 0 ? withArticle(typeWords(types[i]!)) : slot);
  }
  return parts.join(' ');
}

/** A template in words: "a gene/protein targeted by a drug indicated for {seed 1}", branches joined by "and". */
export function templateWords(branches: TemplateBranch[], answerType: string): string {
  return `${withArticle(typeWords(answerType))} ${branches.map((b, i) => branchWords(b, seedSlot(i))).join(' and ')}`;
}

/** The words with each seed's name in its slot. */
export function fillSeeds(words: string, seedNames: string[]): string {
  return seedNames.reduce((text, name, i) => text.replaceAll(seedSlot(i), name), words);
}
