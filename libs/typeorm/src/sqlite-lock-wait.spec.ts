import { QueryFailedError } from 'typeorm';
import { isDatabaseBusy } from './sqlite-lock-wait.js';

/** better-sqlite3's error as it throws it: a message and SQLite's code. */
function sqliteError(code: string): Error {
  return Object.assign(new Error('database is locked'), { code });
}

describe('isDatabaseBusy', () => {
  it('is true for SQLITE_BUSY and its extended codes, raw or in a QueryFailedError', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_BUSY_RECOVERY',
    ]) {
      expect(isDatabaseBusy(sqliteError(code))).toBe(true);
      expect(
        isDatabaseBusy(new QueryFailedError('INSERT', [], sqliteError(code))),
      ).toBe(true);
    }
  });

  it('is false for every other failure', () => {
    for (const error of [
      sqliteError('SQLITE_CONSTRAINT_UNIQUE'),
      sqliteError('SQLITE_LOCKED'),
      new QueryFailedError('INSERT', [], sqliteError('SQLITE_ERROR')),
      new Error('SQLITE_BUSY'),
      undefined,
      null,
      'SQLITE_BUSY',
    ]) {
      expect(isDatabaseBusy(error)).toBe(false);
    }
  });
});
