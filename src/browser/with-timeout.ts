/**
 * Bounds a browser step that has no time limit of its own (newPage, close). Rejects
 * with `onTimeout()` when `ms` pass first; the step itself is left to settle.
 */
export async function withTimeout<T>(step: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([step, expired]);
  } finally {
    clearTimeout(timer);
  }
}
