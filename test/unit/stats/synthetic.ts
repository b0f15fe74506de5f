// A tiny hand-made trace for the statistics tests: two timelines, two state categories, an event
// and the CLOG2 message arrow ("msg_tag=%d, msg_size=%d").
import type { Category, LineIDMap, Primitive, Rgba } from '../../../src/core/model/types';
import { makePrimitive } from '../../../src/core/model/types';
import type { StatsMeta } from '../../../src/core/stats';

function category(index: number, name: string, topology: Category['topology'], infoKeys: string[] = [], infoTypes = ''): Category {
  const rgba: Rgba = [index * 40, 100, 200, 255];
  return { index, name, topology, rgba, modifiable: true, width: 1, infoKeys, infoTypes, methods: [] };
}

export const MSG = 0;
export const A = 1;
export const B = 2;
export const EV = 3;

export const categories = new Map<number, Category>([
  [MSG, category(MSG, 'message', 'arrow', ['msg_tag=', ', msg_size=', ''], 'dd')],
  [A, category(A, 'A', 'state')],
  [B, category(B, 'B', 'state')],
  [EV, category(EV, 'E', 'event')],
]);

export const lineIDMaps: LineIDMap[] = [
  {
    title: 'Process View',
    columns: ['world_rank'],
    rows: [
      { lineID: 0, path: [0] },
      { lineID: 1, path: [1] },
    ],
    methods: [],
  },
  {
    title: 'Communicator View',
    columns: ['commID', 'comm_rank'],
    rows: [
      { lineID: 0, path: [0, 0] },
      { lineID: 1, path: [5, 0] },
    ],
    methods: [],
  },
];

export const meta: StatsMeta = { categories, lineIDMaps };

export function state(cat: number, t0: number, t1: number, lineID = 0): Primitive {
  return makePrimitive(cat, [
    { time: t0, lineID },
    { time: t1, lineID },
  ]);
}

export function event(cat: number, t: number, lineID = 0): Primitive {
  return makePrimitive(cat, [{ time: t, lineID }]);
}

export function message(send: number, from: number, recv: number, to: number, tag: number, size: number): Primitive {
  const info = new Uint8Array(8);
  const dv = new DataView(info.buffer);
  dv.setInt32(0, tag);
  dv.setInt32(4, size);
  return makePrimitive(
    MSG,
    [
      { time: send, lineID: from },
      { time: recv, lineID: to },
    ],
    info,
  );
}
