import readline from 'node:readline';
import { readStdin } from './output';

/**
 * The new user's password: typed twice without echo on a terminal, or the first line of piped stdin
 * (so scripts can do `echo "$PW" | skb create-user ...`).
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return (await readStdin()).split(/\r?\n/)[0] ?? '';
  const first = await promptHidden('Password: ');
  const second = await promptHidden('Repeat password: ');
  if (first !== second) throw new Error('The two passwords differ');
  return first;
}

function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    process.stderr.write(prompt);
    // Swallow the echo of typed characters.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
    rl.question('', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}
