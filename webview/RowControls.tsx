// Toolbar group for the rows: row height (fit all / smaller / larger, with the current height),
// the rank filter ("0-15,64,128-") and "all rows" when some are hidden or moved.
import { useEffect, useState } from 'preact/hooks';
import { ROW_ZOOM_STEP } from './timeline/keys';

export interface RowSummary {
  /** Shown rows and all rows of the map. */
  readonly shown: number;
  readonly total: number;
  readonly rowHeight: number;
  readonly mode: 'auto' | 'fit' | 'fixed';
  /** The shown rows as a rank list ("" when all are shown in file order). */
  readonly filterText: string;
}

export interface RowControlsApi {
  fitRows(): void;
  zoomRows(factor: number): void;
  /** Returns an error message, or undefined when applied. */
  filterRows(text: string): string | undefined;
  showAllRows(): void;
}

export function RowControls(props: { readonly rows: RowSummary | undefined; readonly api: RowControlsApi | undefined }) {
  const { rows, api } = props;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    setText(rows?.filterText ?? '');
    setError(undefined);
  }, [rows?.filterText]);
  const disabled = !rows || !api;
  const height = rows ? (rows.rowHeight >= 10 ? rows.rowHeight.toFixed(0) : rows.rowHeight.toPrecision(2)) : '';
  const apply = (): void => {
    if (!api) return;
    const t = text.trim();
    if (t === '') {
      api.showAllRows();
      setError(undefined);
      return;
    }
    setError(api.filterRows(t));
  };
  return (
    <span class="row-controls" role="group" aria-label="Rows">
      <button
        type="button"
        class="rows-fit"
        disabled={disabled}
        aria-pressed={rows?.mode === 'fit'}
        title="Fit all rows in the editor (rows thinner than a pixel are aggregated)"
        onClick={() => api?.fitRows()}
      >
        Fit rows
      </button>
      <button
        type="button"
        class="rows-smaller"
        disabled={disabled}
        title="Lower rows (Shift+S, Ctrl/Cmd+wheel)"
        onClick={() => api?.zoomRows(1 / ROW_ZOOM_STEP)}
      >
        ▁
      </button>
      <button type="button" class="rows-larger" disabled={disabled} title="Taller rows (Shift+W, Ctrl/Cmd+wheel)" onClick={() => api?.zoomRows(ROW_ZOOM_STEP)}>
        █
      </button>
      <span class="row-height" title="Row height (px)">
        {height ? `${height} px` : ''}
      </span>
      <input
        class={`rows-filter${error ? ' bad' : ''}`}
        aria-label="Show ranks"
        placeholder="ranks e.g. 0-15,64,128-"
        title={error ?? 'Show only these ranks (rows); empty shows all. Enter to apply.'}
        size={14}
        disabled={disabled}
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            e.stopPropagation();
            apply();
          }
        }}
      />
      {rows && rows.shown < rows.total && (
        <button type="button" class="rows-all" title="Show every row in file order" onClick={() => api?.showAllRows()}>
          {rows.shown}/{rows.total} · all
        </button>
      )}
    </span>
  );
}
