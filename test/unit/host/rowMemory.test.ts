import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RowMemory } from '../../../src/host/rowMemory';

/** A workspace-state stand-in (vscode.Memento's get/update). */
function memento() {
  const data = new Map<string, unknown>();
  let updates = 0;
  return {
    get: <T>(key: string): T | undefined => data.get(key) as T | undefined,
    update: async (key: string, value: unknown): Promise<void> => {
      updates++;
      data.set(key, JSON.parse(JSON.stringify(value)));
    },
    keys: () => [...data.keys()],
    get updates() {
      return updates;
    },
  };
}

test('the rows chosen for a trace are remembered, the default forgets them, nothing is written twice', () => {
  const m = memento();
  const mem = new RowMemory(m as never);
  const uri = 'file:///w/user_states_4.slog2';
  assert.equal(mem.get(uri), undefined);
  mem.set(uri, { mapIndex: 0, rows: [0, 1, 3], rowSizing: 'fit' });
  assert.deepEqual(mem.get(uri), { mapIndex: 0, rows: [0, 1, 3], rowSizing: 'fit' });
  const n = m.updates;
  mem.set(uri, { mapIndex: 0, rows: [0, 1, 3], rowSizing: 'fit' });
  assert.equal(m.updates, n);
  mem.set(uri, { mapIndex: 0, rowSizing: 'auto' });
  assert.equal(mem.get(uri), undefined);
});

test('damaged stored entries are ignored, and at most 200 traces are kept', () => {
  const m = memento();
  void m.update('mpeTrace.rowChoices', { 'file:///a': { mapIndex: 0, rows: [-1], at: 1 }, 'file:///b': 'nonsense' });
  const mem = new RowMemory(m as never);
  assert.equal(mem.get('file:///a'), undefined);
  assert.equal(mem.get('file:///b'), undefined);
  for (let i = 0; i < 210; i++) mem.set(`file:///t${i}`, { mapIndex: 0, rowSizing: 30 });
  const stored = m.get<Record<string, unknown>>('mpeTrace.rowChoices')!;
  assert.ok(Object.keys(stored).length <= 200);
});
