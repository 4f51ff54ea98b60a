import { spawn } from 'node:child_process';
import path from 'node:path';

export interface SkbResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `skb` command without blocking this process: in the embedded suite this process
 * serves the database the command connects to, so a synchronous spawn would deadlock.
 */
export function runSkb(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<SkbResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(process.cwd(), 'bin', 'skb.mjs'), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
