/** Prints a command's result: JSON for scripts with --json, readable lines otherwise. */
export function report(json: boolean, value: unknown, human: () => string): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`);
  } else {
    process.stdout.write(`${human()}\n`);
  }
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
