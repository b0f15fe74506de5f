// The one acquireVsCodeApi() of a webview, typed by its protocol: messages to the host, messages
// from the host, and the state VS Code keeps across reloads. Each webview bundle calls it once.

interface VsCodeApi<ToHost> {
  postMessage(message: ToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi<ToHost>(): VsCodeApi<ToHost>;

export interface VsCodeChannel<ToHost, FromHost, State> {
  send(message: ToHost): void;
  /** Listens for the host's messages; returns the unsubscribe. */
  onHostMessage(handler: (m: FromHost) => void): () => void;
  /** The state saved last (unchecked: validate before use). */
  savedState(): unknown;
  saveState(state: State): void;
}

export function vscodeChannel<ToHost, FromHost, State>(): VsCodeChannel<ToHost, FromHost, State> {
  const api = acquireVsCodeApi<ToHost>();
  return {
    send: (message) => api.postMessage(message),
    onHostMessage(handler) {
      const listener = (e: MessageEvent<FromHost>): void => handler(e.data);
      window.addEventListener('message', listener);
      return () => window.removeEventListener('message', listener);
    },
    savedState: () => api.getState(),
    saveState: (state) => api.setState(state),
  };
}
