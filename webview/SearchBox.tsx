// The search box (Ctrl/Cmd+F): text in category names and popup text (plain, whole word, regex,
// case), optionally on some rows and within a duration range; next/previous run on the host over
// the whole file and the webview frames the match; "n of m" from the host's count.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SearchModeName, SearchRequestQuery } from '../src/protocol/webview';
import { parseTime } from './timeline/timeScale';
import { parseRows } from './searchRows';

export interface SearchStatus {
  readonly ordinal: number | undefined;
  readonly matches: number | undefined;
  readonly error: string | undefined;
  readonly searching: boolean;
  readonly notFound: boolean;
}

export function SearchBox(props: {
  mapIndex: number;
  rowCount: number;
  unsearchable: ReadonlySet<number>;
  status: SearchStatus;
  focusKey: number;
  /** Find next/previous from a command: a new `seq` steps once in `direction`. */
  stepCommand?: { readonly direction: 1 | -1; readonly seq: number } | undefined;
  /** Set the text (plain mode) and step to the next match; a new `seq` steps again. */
  preset?: { readonly text: string; readonly seq: number } | undefined;
  step: (query: SearchRequestQuery, direction: 1 | -1) => void;
  close: () => void;
}) {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<SearchModeName>('plain');
  const [caseSensitive, setCase] = useState(false);
  const [rows, setRows] = useState('');
  const [minD, setMinD] = useState('');
  const [maxD, setMaxD] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [props.focusKey]);

  const go = (direction: 1 | -1, over?: { text: string; mode: SearchModeName }): void => {
    try {
      const min = minD.trim() === '' ? undefined : parseTime(minD);
      const max = maxD.trim() === '' ? undefined : parseTime(maxD);
      if (min === undefined && minD.trim() !== '') throw new Error('minimum duration: use e.g. 10us, 2ms, 0.5s');
      if (max === undefined && maxD.trim() !== '') throw new Error('maximum duration: use e.g. 10us, 2ms, 0.5s');
      const rowList = parseRows(rows, props.rowCount);
      setProblem(undefined);
      props.step(
        {
          text: over?.text ?? text,
          mode: over?.mode ?? mode,
          caseSensitive,
          mapIndex: props.mapIndex,
          unsearchable: [...props.unsearchable],
          ...(rowList ? { rows: rowList } : {}),
          ...(min !== undefined ? { minDuration: min } : {}),
          ...(max !== undefined ? { maxDuration: max } : {}),
        },
        direction,
      );
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  useEffect(() => {
    if (props.stepCommand) go(props.stepCommand.direction);
  }, [props.stepCommand?.seq]);
  useEffect(() => {
    const p = props.preset;
    if (!p) return;
    setText(p.text);
    if (mode === 'regex') setMode('plain');
    go(1, { text: p.text, mode: mode === 'regex' ? 'plain' : mode });
  }, [props.preset?.seq]);
  const s = props.status;
  const statusText =
    problem ??
    s.error ??
    (s.searching
      ? 'searching…'
      : s.notFound
        ? 'no match'
        : s.ordinal !== undefined
          ? `${s.ordinal + 1} of ${s.matches ?? '…'}`
          : s.matches !== undefined
            ? `${s.matches} matches`
            : '');
  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        go(1);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          props.close();
        } else if (e.key === 'Enter' && e.shiftKey) {
          e.preventDefault();
          go(-1);
        }
      }}
    >
      <input
        ref={input}
        class="search-text"
        aria-label="search text"
        placeholder="Search categories and popup text"
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        size={24}
      />
      <select aria-label="search mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as SearchModeName)}>
        <option value="plain">text</option>
        <option value="word">whole word</option>
        <option value="regex">regex</option>
      </select>
      <label title="Match case">
        <input type="checkbox" aria-label="match case" checked={caseSensitive} onChange={() => setCase((v) => !v)} />
        Aa
      </label>
      <label title="Only these rows, e.g. 0, 2-5">
        rows <input aria-label="search rows" value={rows} onInput={(e) => setRows((e.target as HTMLInputElement).value)} size={6} placeholder="all" />
      </label>
      <label title="Duration range, e.g. 10us to 2ms">
        duration <input aria-label="minimum duration" value={minD} onInput={(e) => setMinD((e.target as HTMLInputElement).value)} size={6} placeholder="min" />–
        <input aria-label="maximum duration" value={maxD} onInput={(e) => setMaxD((e.target as HTMLInputElement).value)} size={6} placeholder="max" />
      </label>
      <button type="button" class="search-prev" title="Previous match (Shift+Enter)" onClick={() => go(-1)}>
        ↑
      </button>
      <button type="submit" class="search-next" title="Next match (Enter)">
        ↓
      </button>
      <span class={`search-status${problem || s.error ? ' bad' : ''}`} aria-live="polite">
        {statusText}
      </span>
      <button type="button" class="search-close" title="Close (Esc)" onClick={props.close}>
        ✕
      </button>
    </form>
  );
}
