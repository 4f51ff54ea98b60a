#!/usr/bin/env node
// Entry point of the `skb` command: runs the TypeScript CLI through tsx, from the project root.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

process.env.SKB_HOME ??= path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
register();
const { main } = await import('../scripts/cli/main.ts');
await main(process.argv);
