/**
 * SKB Studio's own demo knowledge base: a small, synthetic product catalogue in
 * the spirit of STaRK-Amazon. Every brand, product, review and sentence here is
 * invented for this project. Generation is pure and deterministic: the same
 * seed always yields the same knowledge base.
 */

import { mulberry32, type Rng } from '../random';

export interface SeedEntity {
  externalId: string;
  type: string;
  name: string;
  aliases: string[];
  document: Record<string, unknown>;
}

/** A directed edge between two entities, referenced by externalId. */
export interface SeedEdge {
  source: string;
  relation: string;
  target: string;
}

export interface SeedKnowledgeBase {
  slug: string;
  name: string;
  description: string;
  source: string;
  license: string;
  entities: SeedEntity[];
  edges: SeedEdge[];
}

export const DEFAULT_SEED = 1729;
const PRODUCT_COUNT = 260;

/** Integer in [lo, hi], both inclusive. */
function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

/** Up to k distinct items, in random order (partial Fisher-Yates on a copy). */
function sample<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const pool = [...items];
  const n = Math.min(k, pool.length);
  for (let i = 0; i < n; i++) {
    const j = int(rng, i, pool.length - 1);
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, n);
}

// ---------------------------------------------------------------------------
// Reference data. Kept compact; variety comes from combining it.

interface BrandSpec {
  name: string;
  code: string; // prefix of model numbers
  founded: number;
  country: string;
  about: string;
}

const BRANDS: BrandSpec[] = [
  { name: 'Trailmark', code: 'TM', founded: 1994, country: 'Canada', about: 'Family-run outfitter that began by sewing tents in a garage and still tests every shelter on multi-day trips before release.' },
  { name: 'Fernhollow Outfitters', code: 'FH', founded: 2009, country: 'Norway', about: 'Makes lightweight gear for hikers and runners, with a focus on repairable designs and recycled fabrics.' },
  { name: 'Coppervale', code: 'CV', founded: 1968, country: 'Germany', about: 'Cookware maker known for heavy-gauge pans and a lifetime re-seasoning service.' },
  { name: 'Saltmarrow Kitchenworks', code: 'SK', founded: 2015, country: 'Portugal', about: 'A young design studio making colourful, affordable kitchen tools and drinkware.' },
  { name: 'Lumenhaus', code: 'LH', founded: 2003, country: 'Denmark', about: 'Designs quiet, minimalist lighting with replaceable parts and long-life LEDs.' },
  { name: 'Woolcombe', code: 'WC', founded: 1952, country: 'New Zealand', about: 'Started as a small wool mill and now weaves blankets and insulated sleeping bags from traceable fibre.' },
  { name: 'Kinetra', code: 'KN', founded: 2012, country: 'United States', about: 'Home-gym brand building compact strength and mobility equipment for small spaces.' },
  { name: 'Halden & Pike', code: 'HP', founded: 1987, country: 'United Kingdom', about: 'Traditional homeware house mixing classic patterns with durable everyday materials.' },
];

const COLORS: Array<[name: string, hex: string, about: string]> = [
  ['Black', '#1c1c1c', 'A deep, neutral black that hides scuffs.'],
  ['Arctic White', '#f4f5f2', 'A crisp off-white with a faint cool tint.'],
  ['Slate Grey', '#5f6b73', 'A mid grey with a blue undertone, like wet stone.'],
  ['Navy Blue', '#1f2f52', 'A dark, classic navy.'],
  ['Forest Green', '#2f4f3a', 'A muted green inspired by conifer woods.'],
  ['Burnt Orange', '#c45a1c', 'A warm, earthy orange that stands out on the trail.'],
  ['Crimson Red', '#a3182f', 'A rich red with a slightly cool edge.'],
  ['Sand Beige', '#d8c7a5', 'A pale, sandy neutral.'],
  ['Sky Blue', '#7fb6e0', 'A light, airy blue.'],
  ['Olive', '#6b6b2e', 'A dusty olive green with a brown cast.'],
  ['Charcoal', '#36383a', 'A near-black grey, softer than pure black.'],
  ['Mustard Yellow', '#d1a624', 'A deep, warm yellow with a hint of brown.'],
];

const MATERIALS: Array<[name: string, about: string, benefit: string]> = [
  ['Ripstop Nylon', 'A light woven nylon with a grid of reinforcing threads that stops small tears from spreading.', 'keeps the weight low while resisting tears'],
  ['Recycled Polyester', 'Polyester spun from post-consumer plastic bottles; quick-drying and hard-wearing.', 'dries quickly and shrugs off daily wear'],
  ['Aluminium', 'A light, corrosion-resistant metal used for frames, poles and cookware bodies.', 'stays light without giving up stiffness'],
  ['Stainless Steel', 'A chromium steel alloy that resists rust and does not hold on to flavours.', 'resists rust and cleans up easily'],
  ['Cast Iron', 'A heavy iron alloy that holds heat for a long time and improves with seasoning.', 'holds heat evenly and should last for decades'],
  ['Merino Wool', 'Fine, soft wool that regulates temperature and resists odour.', 'stays warm even when damp'],
  ['Organic Cotton', 'Cotton grown without synthetic pesticides; soft, breathable and machine washable.', 'feels soft and breathes well'],
  ['Beech Wood', 'A dense, fine-grained hardwood from sustainably managed forests.', 'brings a warm, natural finish and wears well'],
  ['Natural Rubber', 'Tapped from rubber trees; grippy, elastic and naturally non-slip.', 'grips well and absorbs knocks'],
];

type CategoryNode = [name: string, about: string, children?: CategoryNode[]];

const CATEGORY_TREE: CategoryNode[] = [
  ['Outdoor', 'Gear for camping, hiking and time spent outside.', [
    ['Camping', 'Shelter, sleep and light for nights outdoors.', [
      ['Tents', 'Shelters for one to six people, from ultralight trekking tents to roomy family domes.'],
      ['Sleeping Bags', 'Bags and quilts rated from warm summer nights to sub-zero winter trips.'],
      ['Lanterns', 'Portable lights for the campsite, the shed or a power cut.'],
    ]],
    ['Hiking', 'Carry and hydration gear for day walks and long treks.', [
      ['Backpacks', 'Daypacks and trekking packs, with capacities in litres.'],
      ['Water Bottles', 'Reusable and insulated bottles for the trail, gym and office.'],
    ]],
  ]],
  ['Kitchen', 'Tools for cooking, prepping and serving.', [
    ['Cookware', 'Pans and pots for the hob and oven.', [
      ['Frying Pans', 'Skillets and sauté pans in non-stick, steel and cast iron.'],
      ['Saucepans', 'Saucepans, milk pans and stockpots, usually sold with lids.'],
    ]],
    ['Kitchen Tools', 'Knives, boards and other preparation tools.', [
      ['Chef Knives', 'Chef, santoku and utility knives for everyday prep.'],
      ['Cutting Boards', 'Wooden and rubber boards for chopping and serving.'],
    ]],
    ['Drinkware', 'Cups and mugs for hot and cold drinks.', [
      ['Travel Mugs', 'Insulated mugs with lids for drinks on the move.'],
    ]],
  ]],
  ['Home', 'Furnishings that make a home comfortable.', [
    ['Lighting', 'Lamps for working, reading and setting a mood.', [
      ['Desk Lamps', 'Task lights for desks, workbenches and bedside tables.'],
    ]],
    ['Textiles', 'Soft furnishings for sofas and beds.', [
      ['Throw Blankets', 'Woven and knitted throws for sofas, beds and picnics.'],
    ]],
  ]],
  ['Fitness', 'Equipment for training at home and on the go.', [
    ['Yoga', 'Mats and accessories for yoga and pilates.', [
      ['Yoga Mats', 'Mats in different thicknesses and grips.'],
    ]],
    ['Strength', 'Weights and bands for strength training.', [
      ['Dumbbells', 'Fixed and adjustable dumbbells.'],
      ['Resistance Bands', 'Elastic loop and tube bands in graded resistances.'],
    ]],
  ]],
];

type QA = [question: string, answers: string[]];
type Range = [number, number];

/** How to make a product for one leaf category. */
interface ProductKind {
  category: string;
  brands: string[];
  nouns: string[];
  variants: string[]; // '' means "no variant in the title"
  price: Range;
  materials: string[];
  dims?: Range[]; // centimetres, one range per axis
  grams?: Range;
  features: string[]; // noun phrases with their own determiner, fit for "Highlights include ..."
  uses: string[];
  qa: QA[];
}

const KINDS: ProductKind[] = [
  {
    category: 'Tents', brands: ['Trailmark', 'Fernhollow Outfitters'],
    nouns: ['Tent', 'Dome Tent', 'Tunnel Tent'],
    variants: ['1-Person', '2-Person', '3-Person', '4-Person', 'Ultralight 2-Person', 'Family 6-Person'],
    price: [89, 549], materials: ['Ripstop Nylon', 'Recycled Polyester', 'Aluminium'],
    dims: [[200, 290], [120, 260], [95, 190]], grams: [1100, 7800],
    features: ['two large vestibules for gear storage', 'colour-coded poles for quick pitching', 'a fully taped rainfly rated to 3000 mm', 'mesh inner walls that cut condensation', 'a freestanding frame that pitches on rock', 'reflective guy lines for night visibility', 'a roof vent you can open from inside'],
    uses: ['weekend trips to the coast', 'alpine camping', 'music festivals', 'backyard sleepovers with the kids', 'long-distance bikepacking'],
    qa: [
      ['How long does it take to pitch?', ['About ten minutes on my own after the first try.', 'Under five minutes with two people once you know the pole colours.']],
      ['Is it fully waterproof?', ['It kept us dry through a night of heavy rain.', 'Yes, though I would seal the floor seams for long trips.']],
    ],
  },
  {
    category: 'Sleeping Bags', brands: ['Trailmark', 'Fernhollow Outfitters', 'Woolcombe'],
    nouns: ['Sleeping Bag', 'Mummy Bag', 'Camping Quilt'],
    variants: ['Summer', 'Three-Season', 'Winter -10°C', 'Down 0°C', 'Synthetic 5°C', 'Kids'],
    price: [39, 389], materials: ['Recycled Polyester', 'Ripstop Nylon', 'Merino Wool'],
    dims: [[190, 225], [70, 85]], grams: [600, 2400],
    features: ['a draft collar that seals in warmth', 'a two-way anti-snag zip', 'a contoured hood with a one-handed drawcord', 'a roomy footbox', 'an internal stash pocket for a phone', 'a compression sack in the box'],
    uses: ['cold nights in the mountains', 'summer festivals', 'hut-to-hut treks', 'car camping with the family'],
    qa: [
      ['Can two of these be zipped together?', ['Yes, if you buy one left-zip and one right-zip version.', 'Not this model, the zips are on the same side.']],
      ['Does it come with a compression sack?', ['Yes, plus a cotton storage bag.', 'Only a stuff sack; the compression sack is sold separately.']],
    ],
  },
  {
    category: 'Lanterns', brands: ['Trailmark', 'Lumenhaus'],
    nouns: ['Lantern', 'Camp Light', 'Hanging Lamp'],
    variants: ['Rechargeable', 'Solar', '200 Lumen', '500 Lumen', 'Collapsible'],
    price: [15, 89], materials: ['Aluminium', 'Recycled Polyester', 'Natural Rubber'],
    dims: [[10, 20], [10, 20], [12, 28]], grams: [150, 750],
    features: ['three brightness modes plus a red night light', 'a USB-C charging port', 'a fold-away hanging hook', 'a splash-proof housing', 'a battery level indicator', 'a warm diffuser that avoids glare'],
    uses: ['evenings at the campsite', 'power cuts at home', 'lighting up the garden', 'night fishing'],
    qa: [
      ['How long does the battery last?', ['Around 20 hours on the lowest setting and 5 on full brightness.', 'I get three evenings of camping out of one charge.']],
      ['Can it charge a phone?', ['Yes, there is a USB-C output for emergencies.', 'No, it only charges itself.']],
    ],
  },
  {
    category: 'Backpacks', brands: ['Trailmark', 'Fernhollow Outfitters'],
    nouns: ['Backpack', 'Daypack', 'Trekking Pack'],
    variants: ['18 L', '28 L', '35 L', '45 L', '60 L', 'Roll-Top 30 L'],
    price: [35, 279], materials: ['Ripstop Nylon', 'Recycled Polyester', 'Aluminium'],
    dims: [[40, 80], [25, 35], [15, 30]], grams: [400, 2100],
    features: ['a ventilated mesh back panel', 'zipped hip belt pockets', 'a padded laptop sleeve', 'a port for a hydration bladder', 'compression straps on both sides', 'a stowable rain cover'],
    uses: ['day hikes', 'multi-day treks', 'the daily commute', 'travelling light'],
    qa: [
      ['Does it fit a 15-inch laptop?', ['Yes, the padded sleeve takes a 15-inch laptop.', 'A 13-inch fits well; a 15-inch is a squeeze.']],
      ['Is there a rain cover?', ['Yes, it is tucked into the base pocket.', 'No, but the fabric handles light showers.']],
    ],
  },
  {
    category: 'Water Bottles', brands: ['Fernhollow Outfitters', 'Saltmarrow Kitchenworks', 'Kinetra'],
    nouns: ['Water Bottle', 'Insulated Bottle', 'Flask'],
    variants: ['500 ml', '750 ml', '1 L', 'Wide-Mouth 1 L', 'Kids 350 ml'],
    price: [12, 49], materials: ['Stainless Steel', 'Aluminium'],
    dims: [[18, 32], [6, 10]], grams: [180, 520],
    features: ['double-wall vacuum insulation', 'a leakproof screw cap with a carry loop', 'a wide mouth that takes ice cubes', 'a powder-coated grip finish', 'a straw lid for one-handed sipping', 'a BPA-free lid'],
    uses: ['the gym', 'long hikes', 'the office', 'school runs'],
    qa: [
      ['How long does it keep drinks cold?', ['Ice was still there after a full day in the car.', 'About 24 hours cold and 12 hours hot.']],
      ['Is it dishwasher safe?', ['The lid is; the bottle should be washed by hand.', 'Yes, top rack only.']],
    ],
  },
  {
    category: 'Frying Pans', brands: ['Coppervale', 'Halden & Pike'],
    nouns: ['Frying Pan', 'Skillet', 'Sauté Pan'],
    variants: ['20 cm', '24 cm', '28 cm', '30 cm', 'Deep 28 cm'],
    price: [24, 189], materials: ['Cast Iron', 'Stainless Steel', 'Aluminium'],
    dims: [[35, 55], [20, 32], [4, 9]], grams: [700, 3600],
    features: ['a three-layer non-stick coating', 'an induction-ready base', 'a riveted stay-cool handle', 'oven safety up to 260°C', 'a pouring lip on both sides', 'a pre-seasoned cooking surface'],
    uses: ['weeknight stir-fries', 'Sunday pancakes', 'searing steaks', 'everyday cooking'],
    qa: [
      ['Does it work on induction?', ['Yes, it works on gas, electric and induction hobs.', 'Yes, I use it on induction every day.']],
      ['Is it oven safe?', ['Yes, up to 260°C.', 'Yes, handle included.']],
    ],
  },
  {
    category: 'Saucepans', brands: ['Coppervale', 'Halden & Pike'],
    nouns: ['Saucepan', 'Stockpot', 'Milk Pan'],
    variants: ['1.5 L', '2 L', '3 L', '5 L', '8 L'],
    price: [19, 159], materials: ['Stainless Steel', 'Aluminium', 'Cast Iron'],
    dims: [[25, 45], [15, 30], [9, 25]], grams: [600, 4200],
    features: ['a tight-fitting glass lid with a steam vent', 'measuring marks etched inside', 'an encapsulated base for even heating', 'drip-free pouring rims', 'stay-cool handles', 'a fully dishwasher-safe build'],
    uses: ['batch cooking', 'sauces and soups', 'boiling pasta', 'small family meals'],
    qa: [
      ['Does it come with a lid?', ['Yes, a glass lid with a steam vent.', 'Yes, a matching steel lid.']],
      ['Do the handles get hot?', ['They stay cool on the hob for normal cooking.', 'The side handles get warm, so keep a cloth handy.']],
    ],
  },
  {
    category: 'Chef Knives', brands: ['Coppervale', 'Saltmarrow Kitchenworks', 'Halden & Pike'],
    nouns: ['Chef Knife', 'Santoku Knife', 'Utility Knife'],
    variants: ['15 cm', '18 cm', '20 cm', 'Damascus 20 cm', ''],
    price: [29, 249], materials: ['Stainless Steel', 'Beech Wood'],
    dims: [[25, 36], [4, 6], [2, 3]], grams: [120, 320],
    features: ['a full-tang blade', 'a hand-sharpened 15-degree edge', 'a handle that balances at the bolster', 'a protective blade guard', 'a hardened blade rated at 58 HRC', 'a dimpled blade that stops food sticking'],
    uses: ['everyday prep', 'slicing vegetables', 'carving roasts', 'learning to cook properly'],
    qa: [
      ['Does it come sharp out of the box?', ['Very sharp; it sliced paper cleanly straight away.', 'Yes, and it holds the edge well.']],
      ['Can it go in the dishwasher?', ['Please wash it by hand to protect the edge and handle.', 'It survives, but hand washing keeps it sharp longer.']],
    ],
  },
  {
    category: 'Cutting Boards', brands: ['Saltmarrow Kitchenworks', 'Halden & Pike'],
    nouns: ['Cutting Board', 'Chopping Block', 'Serving Board'],
    variants: ['Small', 'Medium', 'Large', 'End-Grain', 'Reversible'],
    price: [18, 119], materials: ['Beech Wood', 'Natural Rubber'],
    dims: [[25, 55], [18, 40], [2, 6]], grams: [500, 4500],
    features: ['a deep juice groove around the edge', 'non-slip rubber feet', 'a flat reverse side for serving', 'built-in carrying handles', 'a food-safe oil finish', 'an end-grain surface that is kind to knives'],
    uses: ['everyday prep', 'serving cheese', 'carving roasts', 'a busy family kitchen'],
    qa: [
      ['Does it need oiling?', ['A thin coat of food-safe oil once a month keeps it looking new.', 'Occasionally; it arrives pre-oiled.']],
      ['Does it slide on the counter?', ['No, it has rubber feet underneath.', 'A damp towel underneath stops it moving.']],
    ],
  },
  {
    category: 'Travel Mugs', brands: ['Saltmarrow Kitchenworks', 'Fernhollow Outfitters', 'Halden & Pike'],
    nouns: ['Travel Mug', 'Tumbler', 'Commuter Cup'],
    variants: ['350 ml', '450 ml', '600 ml', 'Leakproof 400 ml'],
    price: [14, 45], materials: ['Stainless Steel', 'Aluminium', 'Natural Rubber'],
    dims: [[14, 22], [7, 10]], grams: [200, 420],
    features: ['a one-handed push-button lid', 'double-wall insulation', 'a body that fits standard car cup holders', 'a lid that comes apart for cleaning', 'a non-slip base', 'a ceramic-coated interior that keeps coffee tasting clean'],
    uses: ['the morning commute', 'long drives', 'the office', 'early starts'],
    qa: [
      ['Does it fit in a car cup holder?', ['Yes, it fits the cup holders in both of our cars.', 'It fits most standard cup holders.']],
      ['Is the lid leakproof?', ['Completely; I carry it sideways in my bag.', 'Splash-proof rather than leakproof.']],
    ],
  },
  {
    category: 'Desk Lamps', brands: ['Lumenhaus', 'Halden & Pike'],
    nouns: ['Desk Lamp', 'Task Light', 'Reading Lamp'],
    variants: ['LED', 'Clamp-On', 'Dimmable LED', 'Architect', 'Cordless'],
    price: [29, 199], materials: ['Aluminium', 'Beech Wood', 'Stainless Steel'],
    dims: [[15, 25], [15, 25], [35, 65]], grams: [600, 2400],
    features: ['stepless dimming', 'adjustable colour temperature', 'a weighted base', 'a USB port for charging a phone', 'a fully articulated arm', 'a flicker-free LED panel'],
    uses: ['late-night reading', 'a home office', 'drawing and crafts', 'a student desk'],
    qa: [
      ['Can you change the colour temperature?', ['Yes, from warm 2700 K to cool 6500 K.', 'No, it is a fixed warm white.']],
      ['What kind of bulb does it use?', ['An integrated LED rated for about 25,000 hours.', 'Any E14 bulb up to 40 W.']],
    ],
  },
  {
    category: 'Throw Blankets', brands: ['Woolcombe', 'Halden & Pike'],
    nouns: ['Throw Blanket', 'Throw', 'Sofa Blanket'],
    variants: ['Herringbone', 'Waffle-Knit', 'Chunky Knit', 'Fringed', 'Lightweight'],
    price: [29, 179], materials: ['Merino Wool', 'Organic Cotton', 'Recycled Polyester'],
    dims: [[130, 180], [150, 220]], grams: [700, 2200],
    features: ['a soft brushed finish', 'hand-knotted fringes', 'a reversible two-tone pattern', 'a generous size that covers a three-seat sofa', 'machine-washable yarn', 'a breathable open weave'],
    uses: ['cosy evenings on the sofa', 'a guest bedroom', 'picnics in the park', 'chilly reading nights'],
    qa: [
      ['Is it machine washable?', ['Yes, on a cool wool cycle.', 'Hand wash or dry clean only.']],
      ['Does it shed?', ['A little for the first few washes, then not at all.', 'No shedding at all in my experience.']],
    ],
  },
  {
    category: 'Yoga Mats', brands: ['Kinetra', 'Fernhollow Outfitters'],
    nouns: ['Yoga Mat', 'Travel Mat', 'Exercise Mat'],
    variants: ['4 mm', '6 mm', 'Extra-Long 6 mm', 'Non-Slip 5 mm', 'Foldable 2 mm'],
    price: [19, 129], materials: ['Natural Rubber', 'Organic Cotton', 'Recycled Polyester'],
    dims: [[173, 200], [60, 68]], grams: [900, 3000],
    features: ['a grippy textured surface', 'alignment lines printed on top', 'a carrying strap', 'a closed-cell surface that does not soak up sweat', 'extra cushioning for the knees', 'a lightweight build that rolls flat'],
    uses: ['daily yoga practice', 'pilates classes', 'home workouts', 'stretching after runs'],
    qa: [
      ['Is it slippery when sweaty?', ['It grips better the more you sweat.', 'A bit slippery in hot yoga; a towel helps.']],
      ['Does it have a smell?', ['A faint rubber smell that goes after a few days.', 'No smell at all.']],
    ],
  },
  {
    category: 'Dumbbells', brands: ['Kinetra'],
    nouns: ['Dumbbell Pair', 'Hex Dumbbell Pair', 'Dumbbell Set'],
    variants: ['5 kg', '8 kg', '12 kg', '20 kg', 'Adjustable 2-24 kg'],
    price: [29, 349], materials: ['Cast Iron', 'Natural Rubber', 'Stainless Steel'],
    dims: [[25, 45], [10, 20], [10, 20]],
    features: ['knurled chrome handles', 'a rubber coating that protects floors', 'hexagonal heads that stop them rolling', 'a compact storage tray', 'a quick-change weight selector', 'clearly printed weight markings'],
    uses: ['home workouts', 'a garage gym', 'strength training', 'rehab exercises'],
    qa: [
      ['Do they roll on the floor?', ['The hex heads keep them from rolling.', 'They can roll, so I keep them on a rack.']],
      ['Will they damage a wooden floor?', ['The rubber coating protects the floor.', 'Use a mat to be safe.']],
    ],
  },
  {
    category: 'Resistance Bands', brands: ['Kinetra', 'Fernhollow Outfitters'],
    nouns: ['Resistance Band Set', 'Loop Bands', 'Power Band'],
    variants: ['Light', 'Medium', 'Heavy', '5-Level', ''],
    price: [9, 59], materials: ['Natural Rubber', 'Organic Cotton'],
    grams: [100, 600],
    features: ['five colour-coded resistance levels', 'a fabric lining that does not roll up', 'a mesh carry bag', 'an exercise guide with 30 routines', 'a door anchor', 'reinforced stitching at the seams'],
    uses: ['home workouts', 'physiotherapy', 'warming up before runs', 'training while travelling'],
    qa: [
      ['How are the levels marked?', ['Each band is labelled with its resistance.', 'By colour, from light to extra heavy.']],
      ['Do they roll up during squats?', ['The fabric version stays put.', 'A little on bare legs.']],
    ],
  },
];

/** Questions any product can get; skipped when a placeholder has no value. */
const GENERIC_QA: QA[] = [
  ['What are the dimensions?', ['It measures {dimensions}.', 'According to the listing, {dimensions}.']],
  ['How much does it weigh?', ['It weighs {weight}.', 'About {weight} on my kitchen scale.']],
  ['Is there a warranty?', ['Yes, {brand} gives a {warranty}-year warranty.', 'Yes, {warranty} years against manufacturing defects.']],
  ['What colours is it available in?', ['It comes in {colors}.']],
  ['What is it made of?', ['Mainly {material}.', 'The main material is {material}.']],
];

const SERIES = ['Ridgeline', 'Summit', 'Harbor', 'Ember', 'Cascade', 'Tundra', 'Meridian', 'Solstice', 'Aster', 'Juniper', 'Basalt', 'Driftwood', 'Halcyon', 'Larkspur', 'Nimbus', 'Orchard', 'Quarry', 'Sable', 'Tamarack', 'Vesper', 'Willow', 'Alder', 'Beacon', 'Cinder', 'Fjord', 'Glacier', 'Heron', 'Kestrel', 'Moraine', 'Pioneer'];

const ADJECTIVES = ['dependable', 'no-nonsense', 'thoughtfully made', 'versatile', 'sturdy', 'refined', 'practical', 'good-looking'];

// Description sentences, in the order they may appear; the opener is always used.
const OPENERS = [
  'The {title} is built for {use}.',
  'Designed with {use} in mind, this {noun} from {brand} keeps things simple.',
  'Meet the {model}: a {adjective} choice for {use}.',
  "{brand}'s {series} line gets a {adjective} {noun} aimed at {use}.",
];
const MATERIAL_SENTENCES = ['Its {material} construction {benefit}.', 'Made from {material}, it {benefit}.'];
const FEATURE_SENTENCES = ['Highlights include {feature} and {feature2}.', 'You also get {feature}, plus {feature2}.', 'Standout details are {feature} and {feature2}.'];
const CLOSERS = ['Available in {colors}.', 'It comes in {colors} and ships in recycled packaging.', 'Backed by a {warranty}-year warranty from {brand}.'];

const FIRST_NAMES = ['Mara', 'Tobias', 'Ines', 'Kwame', 'Priya', 'Jonas', 'Leila', 'Dmitri', 'Aoife', 'Rafael', 'Sun-hee', 'Oskar', 'Nadia', 'Emeka', 'Hana', 'Lucas', 'Freya', 'Tariq', 'Camille', 'Mateo', 'Yara', 'Ben', 'Ingrid', 'Kofi'];

const REVIEWS = {
  positive: {
    summaries: ['Exactly what I needed', 'Worth every penny', 'Great {noun}', 'Better than expected', 'Solid build, fair price', 'My new favourite', 'Would buy again', 'Perfect for {use}', 'Really impressed'],
    sentences: ['I bought this for {use} and it has been great.', 'Having {feature} makes a real difference.', 'The {color} looks even better in person.', 'Build quality feels solid and the {material} is nicely finished.', 'Arrived quickly and well packed.', 'Compared to my old {noun} this is a big step up.', 'I have already recommended it to two friends.', 'Still looks new after months of use.', 'Good value next to the big-name alternatives.', 'We use it for {use} almost every week now.', 'Exactly as described in the listing.'],
  },
  mixed: {
    summaries: ['Decent but not perfect', 'Good, with a few quirks', 'Does the job', 'Fine for the price', 'Average {noun}'],
    sentences: ['It works, though I expected more from {feature}.', 'Fine for {use}, but a little pricey.', 'The {color} is duller than in the photos.', 'It is heavier than I expected at {weight}.', 'Nothing special, nothing wrong.', 'Took a while to get used to.', 'The packaging was excessive for a {noun}.', 'Good idea, average execution.'],
  },
  negative: {
    summaries: ['Disappointed', 'Not as described', 'Did not last', 'Would not buy again', 'Poor quality control', 'Expected better from {brand}'],
    sentences: ['Despite {feature}, it felt flimsy from day one.', 'Mine arrived with a scratch on the {material}.', 'Not suitable for {use} in my experience.', 'Customer service at {brand} took two weeks to reply.', 'It stopped working properly after a month.', 'I sent it back for a refund.', 'The {color} finish started to wear off within weeks.', 'Far too expensive for what you get.'],
  },
};

const PRICE_ENDINGS = [0.99, 0.99, 0.49, 0.95, 0];

// ---------------------------------------------------------------------------
// Text helpers.

type Context = Record<string, string | undefined>;

/** Fills `{key}` placeholders; undefined if any placeholder has no value. */
function fill(template: string, ctx: Context): string | undefined {
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = ctx[key];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : text;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a", "a and b", "a, b and c". */
function listPhrase(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function formatWeight(grams: number): string {
  return grams >= 1000 ? `${(grams / 1000).toFixed(1)} kg` : `${Math.round(grams / 10) * 10} g`;
}

// ---------------------------------------------------------------------------
// Generation.

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const brandId = (index: number) => `B${pad(index + 1, 2)}`;
const colorId = (index: number) => `COL${pad(index + 1, 2)}`;
const materialId = (index: number) => `M${pad(index + 1, 2)}`;

/** Position of a named reference item; a miss means the data above is inconsistent. */
function indexOfName(names: readonly string[], name: string): number {
  const index = names.indexOf(name);
  if (index < 0) throw new Error(`demo catalogue: unknown reference "${name}"`);
  return index;
}

const BRAND_NAMES = BRANDS.map((b) => b.name);
const MATERIAL_NAMES = MATERIALS.map(([name]) => name);

function buildBrands(): SeedEntity[] {
  return BRANDS.map((b, i) => {
    const makes = KINDS.filter((k) => k.brands.includes(b.name)).map((k) => k.category);
    return {
      externalId: brandId(i), type: 'brand', name: b.name, aliases: [],
      document: { founded: b.founded, country: b.country, description: b.about, product_categories: makes },
    };
  });
}

/** Name of the top-level category above a leaf. */
function topLevelOf(leaf: string): string {
  const contains = (node: CategoryNode): boolean => node[0] === leaf || (node[2] ?? []).some(contains);
  const root = CATEGORY_TREE.find(contains);
  if (!root) throw new Error(`demo catalogue: unknown category "${leaf}"`);
  return root[0];
}

/** Depth-first so every parent gets its id before its children. */
function buildCategories(edges: SeedEdge[]): SeedEntity[] {
  const entities: SeedEntity[] = [];
  const visit = (node: CategoryNode, path: string[], parentId?: string) => {
    const [name, about, children = []] = node;
    const externalId = `C${pad(entities.length + 1, 2)}`;
    const fullPath = [...path, name];
    entities.push({ externalId, type: 'category', name, aliases: [], document: { description: about, path: fullPath.join(' > ') } });
    if (parentId) edges.push({ source: externalId, relation: 'subcategory_of', target: parentId });
    for (const child of children) visit(child, fullPath, externalId);
  };
  for (const root of CATEGORY_TREE) visit(root, []);
  return entities;
}

function buildColors(): SeedEntity[] {
  return COLORS.map(([name, hex, about], i) => ({
    externalId: colorId(i), type: 'color', name, aliases: [], document: { description: about, hex },
  }));
}

function buildMaterials(): SeedEntity[] {
  return MATERIALS.map(([name, about], i) => ({
    externalId: materialId(i), type: 'material', name, aliases: [], document: { description: about },
  }));
}

interface ProductDraft {
  entity: SeedEntity;
  kind: ProductKind;
}

function makeProduct(rng: Rng, n: number, kind: ProductKind, categoryId: string, titles: Set<string>, edges: SeedEdge[]): ProductDraft {
  const externalId = `P${pad(n, 4)}`;
  const brandIdx = indexOfName(BRAND_NAMES, pick(rng, kind.brands));
  const brand = BRANDS[brandIdx] as BrandSpec;

  // Retry until the title is unused; the name space per kind is far larger than its share of products.
  let series: string, variant: string, noun: string, title: string;
  do {
    series = pick(rng, SERIES);
    variant = pick(rng, kind.variants);
    noun = pick(rng, kind.nouns);
    title = [brand.name, series, variant, noun].filter(Boolean).join(' ');
  } while (titles.has(title));
  titles.add(title);

  const colorIdx = sample(rng, COLORS.map((_, i) => i), int(rng, 1, 3));
  const colorNames = colorIdx.map((i) => (COLORS[i] as (typeof COLORS)[number])[0].toLowerCase());
  const materialIdx = sample(rng, kind.materials, chance(rng, 0.35) ? 2 : 1).map((m) => indexOfName(MATERIAL_NAMES, m));
  const mainMaterial = MATERIALS[materialIdx[0] as number] as (typeof MATERIALS)[number];
  const features = sample(rng, kind.features, int(rng, 3, 5));
  const dimensions = kind.dims && `${kind.dims.map(([lo, hi]) => int(rng, lo, hi)).join(' x ')} cm`;
  const weight = kind.grams && formatWeight(int(rng, ...kind.grams));

  const ctx: Context = {
    title, model: `${series} ${noun}`, noun: noun.toLowerCase(), series, brand: brand.name,
    use: pick(rng, kind.uses), adjective: pick(rng, ADJECTIVES),
    material: mainMaterial[0].toLowerCase(), benefit: mainMaterial[2],
    feature: features[0], feature2: features[1],
    color: colorNames[0], colors: listPhrase(colorNames),
    warranty: String(pick(rng, [1, 2, 2, 3, 5, 10])), dimensions, weight,
  };

  const document: Record<string, unknown> = {
    title,
    brand: brand.name,
    price: Math.round((int(rng, ...kind.price) + pick(rng, PRICE_ENDINGS)) * 100) / 100,
    description: describe(rng, ctx),
    features: features.map(capitalize),
    ...(dimensions && { dimensions }),
    ...(weight && { weight }),
    reviews: makeReviews(rng, kind, ctx),
    qa: makeQa(rng, kind, ctx),
  };

  edges.push({ source: externalId, relation: 'has_brand', target: brandId(brandIdx) });
  edges.push({ source: externalId, relation: 'has_category', target: categoryId });
  for (const i of colorIdx) edges.push({ source: externalId, relation: 'has_color', target: colorId(i) });
  for (const i of materialIdx) edges.push({ source: externalId, relation: 'made_of', target: materialId(i) });

  const aliases: string[] = [];
  if (chance(rng, 0.45)) aliases.push(`${brand.code}-${series.slice(0, 3).toUpperCase()}${int(rng, 100, 999)}`);
  if (chance(rng, 0.3)) aliases.push([series, variant, noun].filter(Boolean).join(' '));

  return { entity: { externalId, type: 'product', name: title, aliases, document }, kind };
}

/** An opener plus one to three further sentences, kept in a natural order. */
function describe(rng: Rng, ctx: Context): string {
  const optional = [MATERIAL_SENTENCES, FEATURE_SENTENCES, CLOSERS].filter(() => chance(rng, 0.6));
  if (optional.length === 0) optional.push(FEATURE_SENTENCES);
  return [OPENERS, ...optional].map((pool) => fill(pick(rng, pool), ctx) as string).join(' ');
}

/** Skewed towards good ratings, like most shop listings; some products attract many reviews. */
function makeReviews(rng: Rng, kind: ProductKind, ctx: Context): Array<Record<string, unknown>> {
  const count = chance(rng, 0.12) ? int(rng, 7, 12) : int(rng, 0, 6);
  const bias = pick(rng, [-1, 0, 0, 0, 1]); // some products are simply better than others
  return Array.from({ length: count }, () => {
    const rating = Math.min(5, Math.max(1, pick(rng, [1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5]) + bias));
    const tone = rating >= 4 ? REVIEWS.positive : rating === 3 ? REVIEWS.mixed : REVIEWS.negative;
    // Each review talks about its own detail of the product.
    const local: Context = { ...ctx, feature: pick(rng, kind.features), use: pick(rng, kind.uses) };
    const sentences = sample(rng, tone.sentences, tone.sentences.length)
      .map((s) => fill(s, local))
      .filter((s): s is string => s !== undefined)
      .slice(0, int(rng, 1, 3));
    return {
      reviewer: `${pick(rng, FIRST_NAMES)} ${String.fromCharCode(65 + int(rng, 0, 25))}.`,
      rating,
      summary: fill(pick(rng, tone.summaries), local) as string,
      text: sentences.join(' '),
    };
  });
}

function makeQa(rng: Rng, kind: ProductKind, ctx: Context): Array<Record<string, string>> {
  const qa: Array<Record<string, string>> = [];
  const wanted = int(rng, 0, 4);
  const pool = [...kind.qa, ...GENERIC_QA];
  for (const [question, answers] of sample(rng, pool, pool.length)) {
    if (qa.length === wanted) break;
    const answer = fill(pick(rng, answers), ctx);
    if (answer !== undefined) qa.push({ question, answer });
  }
  return qa;
}

/** Adds `relation` edges from each product to up to `max` distinct others drawn from `candidates`. */
function linkProducts(rng: Rng, products: ProductDraft[], relation: string, max: number, candidates: (p: ProductDraft) => ProductDraft[], edges: SeedEdge[]): void {
  for (const p of products) {
    const others = candidates(p).filter((o) => o !== p);
    for (const o of sample(rng, others, int(rng, 0, max))) {
      edges.push({ source: p.entity.externalId, relation, target: o.entity.externalId });
    }
  }
}

export function buildDemoCatalogue(seed: number = DEFAULT_SEED): SeedKnowledgeBase {
  const rng = mulberry32(seed);
  const edges: SeedEdge[] = [];
  const brands = buildBrands();
  const categories = buildCategories(edges);
  const colors = buildColors();
  const materials = buildMaterials();
  const categoryNames = categories.map((c) => c.name);

  // Round-robin over kinds so every leaf category gets a fair share of products.
  const titles = new Set<string>();
  const products = Array.from({ length: PRODUCT_COUNT }, (_, i) => {
    const kind = KINDS[i % KINDS.length] as ProductKind;
    const categoryId = (categories[indexOfName(categoryNames, kind.category)] as SeedEntity).externalId;
    return makeProduct(rng, i + 1, kind, categoryId, titles, edges);
  });

  // Shoppers compare alternatives in the same leaf category ("also viewed") and buy
  // complements from sibling categories under the same top-level one ("also bought").
  const topOf = new Map(KINDS.map((k) => [k, topLevelOf(k.category)]));
  linkProducts(rng, products, 'also_viewed', 5, (p) => products.filter((o) => o.kind === p.kind), edges);
  linkProducts(rng, products, 'also_bought', 4, (p) => products.filter((o) => o.kind !== p.kind && topOf.get(o.kind) === topOf.get(p.kind)), edges);

  return {
    slug: 'demo-catalogue',
    name: 'Demo product catalogue',
    description:
      'A small synthetic online shop written for SKB Studio: a few hundred products across outdoor, kitchen, home and fitness ' +
      'categories, each with a shop-style document (title, price, description, features, customer reviews and Q&A), linked to ' +
      'brands, a category hierarchy, colours and materials, and to each other through also-bought and also-viewed edges. ' +
      'It is deterministic and small enough to explore end to end, in the spirit of the STaRK-Amazon knowledge base.',
    source: 'Written for SKB Studio (synthetic)',
    license: 'CC0-1.0',
    entities: [...brands, ...categories, ...colors, ...materials, ...products.map((p) => p.entity)],
    edges,
  };
}
