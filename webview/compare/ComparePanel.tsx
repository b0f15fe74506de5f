// The Compare view: the two runs, how B is aligned on A, the difference table (per category, call
// site or rank; largest |delta| first; a click highlights it in both timelines) and the iterations.
import { useEffect, useState } from 'preact/hooks';
import type { RunDiff } from '../../src/core/compare/diff';
import type { Alignment, HostToCompare, PairMessage, RunIterations } from '../../src/protocol/compare';
import { useTheme } from '../stats/theme';
import { AlignControl } from './AlignControl';
import { DiffTable } from './DiffTable';
import { IterationChart } from './IterationChart';
import { loadTab, onHostMessage, saveTab, send, type DiffTab } from './vscodeApi';

interface Result {
  readonly diff: RunDiff;
  readonly iterations: { readonly a: RunIterations; readonly b: RunIterations };
}

export function ComparePanel() {
  const [pair, setPair] = useState<PairMessage | undefined>(undefined);
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [none, setNone] = useState(false);
  const [tab, setTab] = useState<DiffTab>(loadTab());
  const theme = useTheme();

  useEffect(() => {
    const off = onHostMessage((m: HostToCompare) => {
      switch (m.kind) {
        case 'none':
          setNone(true);
          setPair(undefined);
          setResult(undefined);
          setStatus(undefined);
          setError(undefined);
          return;
        case 'pair':
          setNone(false);
          setPair(m);
          setStatus(undefined);
          setError(undefined);
          return;
        case 'diff':
          setResult({ diff: m.diff, iterations: m.iterations });
          return;
        case 'progress':
          setStatus(m.text);
          return;
        case 'error':
          setError(m.message);
          return;
      }
    });
    send({ kind: 'ready' });
    return off;
  }, []);

  const chooseTab = (t: DiffTab) => {
    setTab(t);
    saveTab(t);
  };
  const align = (alignment: Alignment) => send({ kind: 'align', alignment });

  if (none || pair === undefined) {
    return (
      <div class="empty muted">
        <p>No comparison open.</p>
        <p>
          Open a trace, then run <b>MPE Trace: Compare with…</b> (editor toolbar, command palette, or right-click a second trace in the Explorer): both
          timelines move together and the difference appears here.
        </p>
      </div>
    );
  }

  return (
    <div>
      <div class="status">
        <div class="pair">
          <span class="tag">A</span>
          <span>{pair.a}</span>
          <span class="tag">B</span>
          <span>{pair.b}</span>
        </div>
        <AlignControl pair={pair} align={align} />
        {status !== undefined ? <div class="muted">{status}</div> : null}
        {error !== undefined ? <div class="error">{error}</div> : null}
      </div>
      <DiffTable diff={result?.diff} tab={tab} chooseTab={chooseTab} />
      {result !== undefined ? (
        <>
          <h3>Iterations</h3>
          <IterationChart a={result.iterations.a} b={result.iterations.b} theme={theme} onPick={(i) => align({ mode: 'iteration', iteration: i })} />
        </>
      ) : null}
    </div>
  );
}
