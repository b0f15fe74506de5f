/**
 * A conversion under VS Code's cancellable progress notification: the notification's cancel and
 * the caller's signal both abort it; progress is reported as a fraction, each increment once.
 */
import * as vscode from 'vscode';

/** Reports a conversion's progress: `fraction` in 0..1 (clamped). */
export type FractionReport = (fraction: number, message?: string) => void;

export function withConversionNotification<T>(
  title: string,
  signal: AbortSignal,
  run: (report: FractionReport, signal: AbortSignal) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const ac = new AbortController();
    const onSignal = (): void => ac.abort(new Error('conversion cancelled'));
    signal.addEventListener('abort', onSignal);
    const sub = token.onCancellationRequested(onSignal);
    let last = 0;
    try {
      return await run((fraction, message) => {
        const f = Math.max(0, Math.min(1, fraction));
        progress.report({ increment: (f - last) * 100, ...(message ? { message } : {}) });
        last = f;
      }, ac.signal);
    } finally {
      sub.dispose();
      signal.removeEventListener('abort', onSignal);
    }
  });
}
