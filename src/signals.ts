/**
 * One signal that aborts when `primary` or `secondary` does (with that signal's reason), and a
 * function that detaches it again. Use it instead of `AbortSignal.any()` whenever one side lives
 * long (an agent's stop signal, a driver's lifetime): on Node 20 a long-lived source keeps a
 * reference to every signal `AbortSignal.any()` ever combined with it (nodejs/node#55351), so a
 * daemon would grow by one signal per request. Call `unlink()` when the operation ends.
 */
export function linkSignals(
  primary: AbortSignal,
  secondary: AbortSignal | undefined,
): { signal: AbortSignal; unlink: () => void } {
  if (!secondary) return { signal: primary, unlink: () => {} };
  const controller = new AbortController();
  const onPrimary = () => controller.abort(primary.reason);
  const onSecondary = () => controller.abort(secondary.reason);
  if (primary.aborted) onPrimary();
  else if (secondary.aborted) onSecondary();
  primary.addEventListener('abort', onPrimary, { once: true });
  secondary.addEventListener('abort', onSecondary, { once: true });
  return {
    signal: controller.signal,
    unlink: () => {
      primary.removeEventListener('abort', onPrimary);
      secondary.removeEventListener('abort', onSecondary);
    },
  };
}
