import type { CallReporter } from '@nestops/operations/internal';
import type { TaskStore } from './task-store.js';

/**
 * A task's progress reports as its status message (`"40/100: importing"`),
 * stored one after another in the order reported; its log messages go to
 * the app's logger.
 */
export function taskReporter(store: TaskStore, id: string): CallReporter {
  let last: Promise<unknown> = Promise.resolve();
  return {
    progress(progress, total, message) {
      const text = `${progress}${total === undefined ? '' : `/${total}`}${message === undefined ? '' : `: ${message}`}`;
      last = last
        .then(() =>
          store.update(id, (now) =>
            now.status === 'working'
              ? { ...now, statusMessage: text, lastUpdatedAt: Date.now() }
              : undefined,
          ),
        )
        .catch(() => undefined);
    },
    log: () => false,
  };
}
