// How B is put on A in the Compare view: by start, by iteration k, or by a category's first
// instance; the shift in force beside it.
import type { Alignment, PairMessage } from '../../src/protocol/compare';
import { signed } from './DiffTable';

export function AlignControl(props: { readonly pair: PairMessage; readonly align: (a: Alignment) => void }) {
  const { pair, align } = props;
  const k = pair.alignment.mode === 'iteration' ? pair.alignment.iteration : undefined;
  return (
    <div class="align">
      <span class="muted">Align B on A:</span>
      <select
        aria-label="Alignment"
        value={pair.alignment.mode === 'category' ? `category:${pair.alignment.name}` : pair.alignment.mode}
        onChange={(e) => {
          const v = (e.currentTarget as HTMLSelectElement).value;
          if (v === 'start') align({ mode: 'start' });
          else if (v === 'iteration') align({ mode: 'iteration', iteration: k ?? 0 });
          else if (v.startsWith('category:')) align({ mode: 'category', name: v.slice('category:'.length) });
        }}
      >
        <option value="start">by start</option>
        <option value="iteration">by iteration</option>
        {pair.categories.map((c) => (
          <option value={`category:${c}`}>first {c}</option>
        ))}
      </select>
      {pair.alignment.mode === 'iteration' ? (
        <input
          aria-label="Iteration"
          type="number"
          min={1}
          value={(k ?? 0) + 1}
          onChange={(e) => align({ mode: 'iteration', iteration: Math.max(0, Number((e.currentTarget as HTMLInputElement).value) - 1) })}
          style={{ width: '5em' }}
        />
      ) : null}
      <span class="muted">shift {signed(pair.shift)}</span>
    </div>
  );
}
