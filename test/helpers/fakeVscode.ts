// A minimal stand-in for the `vscode` module, enough for src/host/statsView.ts: imported FIRST by
// a test, it makes `require('vscode')` (left external by the test bundler) return this object.
import Module from 'node:module';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static parse(s: string): Uri {
    const m = /^([a-z]+):\/\/(.*)$/.exec(s);
    return m === null ? new Uri('file', s) : new Uri(m[1]!, m[2]!);
  }
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    const segs = base.path.split('/');
    for (const p of parts) for (const s of p.split('/')) s === '..' ? segs.pop() : segs.push(s);
    return new Uri(base.scheme, segs.join('/'));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

const noEvent = () => ({ dispose: () => undefined });

/** What the fake records, for assertions. */
export const recorded = {
  providers: new Map<string, unknown>(),
  saveDialog: undefined as Uri | undefined,
  written: new Map<string, string>(),
  clipboard: '',
  status: [] as string[],
  errors: [] as string[],
  /** Diagnostics set per URI (the Problems panel). */
  diagnostics: new Map<string, unknown[]>(),
};

export const vscodeFake = {
  EventEmitter,
  Uri,
  ProgressLocation: { Notification: 15 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  Range: class {
    constructor(...at: number[]) {
      void at;
    }
  },
  Diagnostic: class {
    source?: string;
    code?: unknown;
    constructor(
      readonly range: unknown,
      readonly message: string,
      readonly severity: number,
    ) {}
  },
  TabInputCustom: class {},
  languages: {
    createDiagnosticCollection: () => ({
      set: (uri: Uri, items: unknown[]) => recorded.diagnostics.set(uri.toString(), items),
      delete: (uri: Uri) => recorded.diagnostics.delete(uri.toString()),
      dispose: () => undefined,
    }),
  },
  commands: { registerCommand: () => ({ dispose: () => undefined }) },
  RelativePattern: class {
    constructor(
      readonly base: unknown,
      readonly pattern: string,
    ) {}
  },
  window: {
    tabGroups: { all: [] as unknown[], onDidChangeTabs: noEvent },
    withProgress: async <T>(
      _options: unknown,
      task: (progress: { report(v: unknown): void }, token: { onCancellationRequested: typeof noEvent }) => Promise<T>,
    ) => task({ report: () => undefined }, { onCancellationRequested: noEvent }),
    showErrorMessage: async (text: string) => {
      recorded.errors.push(text);
      return undefined;
    },
    registerWebviewViewProvider: (id: string, provider: unknown) => {
      recorded.providers.set(id, provider);
      return { dispose: () => recorded.providers.delete(id) };
    },
    showSaveDialog: async () => recorded.saveDialog,
    setStatusBarMessage: (text: string) => {
      recorded.status.push(text);
      return { dispose: () => undefined };
    },
  },
  workspace: {
    createFileSystemWatcher: () => ({ onDidChange: noEvent, onDidCreate: noEvent, dispose: () => undefined }),
    getConfiguration: () => ({ get: <T>(_key: string, fallback: T) => fallback }),
    fs: {
      writeFile: async (uri: Uri, bytes: Uint8Array) => {
        recorded.written.set(uri.toString(), new TextDecoder().decode(bytes));
      },
    },
  },
  env: {
    clipboard: {
      writeText: async (text: string) => {
        recorded.clipboard = text;
      },
    },
  },
};

const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const original = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return vscodeFake;
  return original.call(this, request, parent, isMain);
};

/** A fake WebviewView: collects posted messages; `receive` plays a message from the panel. */
export class FakeWebviewView {
  readonly posted: unknown[] = [];
  private readonly fromPanel = new EventEmitter<unknown>();
  private readonly visibility = new EventEmitter<void>();
  private readonly disposed = new EventEmitter<void>();
  visible = true;
  readonly webview = {
    options: {} as unknown,
    html: '',
    cspSource: 'vscode-resource:',
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: unknown) => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: this.fromPanel.event,
  };
  readonly onDidChangeVisibility = this.visibility.event;
  readonly onDidDispose = this.disposed.event;

  receive(m: unknown): void {
    this.fromPanel.fire(m);
  }

  /** Resolves with the first message posted at index ≥ `from` that satisfies `pred`. */
  async waitFor<T>(pred: (m: unknown) => m is T, from: number, timeoutMs = 20000): Promise<T> {
    const start = from;
    const until = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.posted.slice(start).find(pred);
      if (hit !== undefined) return hit;
      if (Date.now() > until) throw new Error(`timed out; posted: ${JSON.stringify(this.posted.slice(start)).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
