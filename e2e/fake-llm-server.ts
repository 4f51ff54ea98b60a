import crypto from 'node:crypto';
import http from 'node:http';

/**
 * A stand-in OpenAI-compatible endpoint for the end-to-end tests (no model is reachable there): it tells the
 * four prompts apart by the marker closing each system prompt and answers each plausibly and deterministically.
 *   synthesis.properties: passages copied verbatim from the document (never naming the entity), as properties;
 *   synthesis.compose:    a query made of the template in words and the properties (the seeds are in the words);
 *   synthesis.filter:     satisfied when the candidate's document holds the first property (case-insensitive);
 *   study.rate:           a rating on each listed dimension's scale, from a hash of the query and the key.
 * GET /v1/models lists the one model (the readiness check); GET /fake/stats counts the requests per prompt.
 * Run: `npx tsx e2e/fake-llm-server.ts [port]` (3299 by default).
 */

const DEFAULT_PORT = 3299;
const FAKE_LLM_MODEL = 'fake-model';

interface Message {
  role: string;
  content: string;
}

/** The text between `label` and the next blank line (or the end). */
const section = (text: string, label: string): string => {
  const at = text.indexOf(label);
  if (at === -1) return '';
  const rest = text.slice(at + label.length);
  const end = rest.search(/\n\s*\n/);
  return (end === -1 ? rest : rest.slice(0, end)).trim();
};
const line = (text: string, label: string): string => new RegExp(`^${label}\\s*(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
const documentOf = (text: string): string => /<<<\n([\s\S]*?)\n>>>/.exec(text)?.[1] ?? '';
const listed = (text: string): string[] => text.split('\n').map((l) => l.replace(/^\s*-\s*/, '').trim()).filter(Boolean);
const hash = (text: string): number => crypto.createHash('sha256').update(text).digest().readUInt32BE(0);

function properties(user: string): object {
  const name = line(user, 'Entity name:').toLowerCase();
  const count = Number(line(user, 'Properties wanted:')) || 3;
  // Sentences and lines, without their closing stop; a "field: value" line gives its value as the property.
  const passages = documentOf(user).split(/(?<=[.;])\s+|\n/).map((s) => s.trim().replace(/[.;]$/, ''))
    .filter((s) => s.length >= 8 && s.length <= 120 && (!name || !s.toLowerCase().includes(name)));
  return {
    properties: [...new Set(passages)].slice(0, count).map((quote) => ({ property: quote.replace(/^[\w .-]{1,30}:\s+/, ''), quote })),
  };
}

function compose(user: string): object {
  const template = line(user, 'Relational requirement:');
  const answerType = line(user, 'Answer type:') || 'entity';
  const props = listed(section(user, 'Properties of the entity sought:'));
  const described = props.length ? `, one described with ${props.map((p) => `"${p}"`).join(' and ')}` : '';
  return { query: `I am looking for ${template}${described}. Which ${answerType} would that be?` };
}

function filter(user: string): object {
  const first = listed(section(user, 'Properties to check:'))[0] ?? '';
  const satisfies = documentOf(user).toLowerCase().includes(first.toLowerCase());
  return { satisfies, reason: satisfies ? `The document states "${first}".` : `The document does not state "${first}".` };
}

function rate(user: string): object {
  const query = section(user, 'Query:');
  const ratings: Record<string, number> = {};
  for (const [, key, lo, hi] of user.matchAll(/^- "([^"]+)".*\n\s*An integer from (-?\d+) to (-?\d+)/gm)) {
    const low = Number(lo);
    ratings[key!] = low + (hash(`${query}\u0000${key}`) % (Number(hi) - low + 1));
  }
  return { ratings, reason: 'Rated by the test endpoint from the query text.' };
}

const ANSWERS: Record<string, (user: string) => object> = {
  'synthesis.properties': properties, 'synthesis.compose': compose, 'synthesis.filter': filter, 'study.rate': rate,
};

const counts: Record<string, number> = {};

function answer(messages: Message[]): { status: number; body: object } {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const id = /\(Prompt ([\w.]+), version \d+\.\)/.exec(system)?.[1];
  const reply = id ? ANSWERS[id] : undefined;
  if (!id || !reply) return { status: 400, body: { error: { message: `The test endpoint does not know this prompt (${id ?? 'no marker'})` } } };
  counts[id] = (counts[id] ?? 0) + 1;
  const content = JSON.stringify(reply(user));
  const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
  const usage = { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(content.length / 4) };
  return {
    status: 200,
    body: {
      id: `chatcmpl-${hash(user).toString(16)}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: FAKE_LLM_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

const send = (res: http.ServerResponse, status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/models') return send(res, 200, { object: 'list', data: [{ id: FAKE_LLM_MODEL, object: 'model' }] });
  if (req.method === 'GET' && req.url === '/fake/stats') return send(res, 200, { requests: counts });
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, { error: { message: `No route ${req.method} ${req.url}` } });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      const { status, body } = answer((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Message[] }).messages);
      send(res, status, body);
    } catch (err) {
      send(res, 400, { error: { message: `Unreadable request: ${(err as Error).message}` } });
    }
  });
});

const port = Number(process.argv[2] ?? DEFAULT_PORT);
server.listen(port, '127.0.0.1', () => console.log(`fake LLM endpoint on http://127.0.0.1:${port}/v1`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
