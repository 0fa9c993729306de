import type { CallReporter } from '@nestops/operations/internal';
import type { TaskStore } from './task-store.js';

/** The least time between two status messages stored for one task. */
export const STATUS_INTERVAL_MS = 250;

/**
 * A task's progress reports as its status message (`"40/100: importing"`):
 * the first stored at once, then the latest at most every `intervalMs`
 * (each write is the whole task, in Redis too), in the order reported, and
 * only while the task is `working`. Log messages go to the app's logger.
 */
export function taskReporter(
  store: TaskStore,
  id: string,
  intervalMs = STATUS_INTERVAL_MS,
): CallReporter {
  let latest: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let wrote = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = () => {
    timer = undefined;
    const text = latest;
    latest = undefined;
    if (text === undefined) {
      return;
    }
    wrote = Date.now();
    writing = writing
      .then(() =>
        store.update(id, (now) =>
          now.status === 'working'
            ? { ...now, statusMessage: text, lastUpdatedAt: Date.now() }
            : undefined,
        ),
      )
      .catch(() => undefined);
  };
  return {
    progress(progress, total, message) {
      latest = `${progress}${total === undefined ? '' : `/${total}`}${message === undefined ? '' : `: ${message}`}`;
      if (timer) {
        return;
      }
      const wait = wrote + intervalMs - Date.now();
      if (wait <= 0) {
        flush();
      } else {
        timer = setTimeout(flush, wait);
        timer.unref();
      }
    },
    log: () => false,
  };
}
