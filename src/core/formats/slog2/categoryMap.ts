/** CategoryMap block (SLOG2.md §4): legend entries keyed by index, incl. preview categories. */
import type { BinaryReader } from '../../bytes/binaryReader';
import type { Category, Rgba, Topology } from '../../model/types';
import type { Slog2Version } from './header';

const TOPOLOGIES: readonly Topology[] = ['event', 'state', 'arrow'];

/** Smallest possible category record: index, empty name, topology, colour, flag, width, three counts. */
const MIN_CATEGORY_BYTES = 4 + 2 + 4 + 4 + 1 + 1 + 2 + 2 + 2;

export function argbToRgba(argb: number): Rgba {
  return [(argb >>> 16) & 0xff, (argb >>> 8) & 0xff, argb & 0xff, (argb >>> 24) & 0xff];
}

export function parseCategoryMap(r: BinaryReader, version: Slog2Version, warnings: string[]): Map<number, Category> {
  const count = r.checkCount(r.i32('category count'), MIN_CATEGORY_BYTES, 'category');
  const map = new Map<number, Category>();
  for (let i = 0; i < count; i++) {
    const at = r.offset;
    const c = parseCategory(r, version, warnings);
    if (map.has(c.index)) warnings.push(`${r.file}:${at}: duplicate category index ${c.index} ignored`);
    else map.set(c.index, c);
  }
  return map;
}

function parseCategory(r: BinaryReader, version: Slog2Version, warnings: string[]): Category {
  const index = r.i32('category index');
  const name = r.javaString('category name');
  const topoAt = r.offset;
  const topoCode = r.i32('category topology');
  let topology = TOPOLOGIES[topoCode];
  if (topology === undefined) {
    warnings.push(`${r.file}:${topoAt}: category ${index} has unknown topology ${topoCode}; treated as a state`);
    topology = 'state';
  }
  const rgba = argbToRgba(r.i32('category colour'));
  const modifiable = r.u8('colour-modifiable flag') !== 0;
  const width = r.i8('category width');
  const nkeys = r.checkCount(r.i16('info key count'), 2, 'info key');
  const infoKeys: string[] = [];
  for (let k = 0; k < nkeys; k++) infoKeys.push(r.javaString('info key'));
  const ntypes = r.checkCount(r.i16('info type count'), 1, 'info type');
  const infoTypes = String.fromCharCode(...r.bytesView(ntypes, 'info types'));
  const nmethods = r.checkCount(r.i16('method count'), 4, 'method');
  const methods: number[] = [];
  for (let m = 0; m < nmethods; m++) methods.push(r.i32('method id'));
  const category: Category = { index, name, topology, rgba, modifiable, width, infoKeys, infoTypes, methods };
  if (version === 'SLOG 2.0.6') {
    const incl = r.f32('summary incl_ratio');
    const excl = r.f32('summary excl_ratio');
    const count = r.i64('summary count');
    category.summary = { incl, excl, count };
  }
  return category;
}

/** The stand-in for an index missing from the CategoryMap (the reference's "UnknownType-N"). */
export function unknownCategory(index: number): Category {
  return {
    index,
    name: `UnknownType-${index}`,
    topology: 'state',
    rgba: [128, 128, 128, 255],
    modifiable: true,
    width: 1,
    infoKeys: [],
    infoTypes: '',
    methods: [],
  };
}
