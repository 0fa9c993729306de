import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/** How a spawned command line ended, with all it wrote. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of a spawned command line: this one's, without inherited
 * credentials or PostgreSQL database, plus `extra`.
 */
export function childEnv(
  extra: Record<string, string> = {},
): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && entry[0] !== 'MCP_AUTHORIZATION',
    ),
  );
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

/** Collects a child's output until it closes. */
export function finished(
  child: ChildProcessWithoutNullStreams,
): Promise<Finished> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    ),
  );
}
