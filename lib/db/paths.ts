import path from 'node:path';

/** Where the embedded database and local secrets live; git-ignored. Overridable for tests. */
export function dataDir(): string {
  return path.resolve(process.env.SKB_DATA_DIR ?? path.join(projectRoot(), '.data'));
}

export function projectRoot(): string {
  return path.resolve(process.env.SKB_HOME ?? process.cwd());
}

export function migrationsDir(): string {
  return path.join(projectRoot(), 'prisma', 'migrations');
}
