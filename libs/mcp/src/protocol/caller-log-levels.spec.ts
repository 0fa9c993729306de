import { CallerLogLevels } from './caller-log-levels';

describe('CallerLogLevels', () => {
  it("keeps each caller's level apart, read through any holder of that caller", () => {
    const levels = new CallerLogLevels();
    levels.of('alice').level = 'debug';
    levels.of('bob').level = 'error';
    expect(levels.of('alice').level).toBe('debug');
    expect(levels.of('bob').level).toBe('error');
    expect(levels.of('carol').level).toBeUndefined();
  });

  it('forgets the level set longest ago past its bound; setting a level again makes it the newest', () => {
    const levels = new CallerLogLevels(2);
    levels.of('a').level = 'info';
    levels.of('b').level = 'info';
    levels.of('a').level = 'warning';
    levels.of('c').level = 'error';
    expect(levels.of('b').level).toBeUndefined();
    expect(levels.of('a').level).toBe('warning');
    expect(levels.of('c').level).toBe('error');
  });

  it('forgets a level set to undefined', () => {
    const levels = new CallerLogLevels(1);
    levels.of('a').level = 'info';
    levels.of('a').level = undefined;
    levels.of('b').level = 'debug';
    expect(levels.of('a').level).toBeUndefined();
    expect(levels.of('b').level).toBe('debug');
  });
});
