/**
 * The category table of the reference converter (CLOG2.md §11.1–§11.3, CLOG.md §6.1): placeholder
 * categories numbered from the preamble's id ranges, an etype → handler table, and definitions that
 * rename/recolour categories in place. Categories are shared mutable objects: drawables refer to
 * them by index, and names/colours are final only once the whole stream has been read (definitions
 * of MPI states come at the end of a CLOG2 file).
 */
import { parseInfoFormat } from '../../model/infoFormat';
import type { Category, Rgba, Topology } from '../../model/types';
import { DefaultPalette } from './palette';
import { infoLocationSlots, type InfoLocationSlots } from './sourceLocations';
import { x11Color } from './x11Colors';

/** What an etype does when an event record carries it. */
export const enum Role {
  Start = 0,
  Final = 1,
  Solo = 2,
  Send = 3,
  Receive = 4,
}

/** Etypes looked up in a flat table: MPE's solo events, message etypes, known and user states and solo events. */
const DENSE_MIN = -256;
const DENSE_MAX = 16384;

const PINK: Rgba = [255, 192, 203, 255];
const WHITE: Rgba = [255, 255, 255, 255];

/** Converter-side bookkeeping around one model category. */
export interface ConvCategory {
  readonly category: Category;
  /** Set once a definition (or our UnknownType-e rule) gave it a name. */
  named: boolean;
  /** A definition named a colour the table does not know: a palette colour is given at the end. */
  needsPaletteColor: boolean;
  /** Number of STATEDEF records naming it (the reference's unmatched-count multiplier, §11.10). */
  stateDefs: number;
  /** Drawables produced so far. */
  drawables: number;
  /** Where a file/line sits in this category's info values (set by definitions), if anywhere. */
  infoLocation: InfoLocationSlots | undefined;
}

export interface Definition {
  readonly color: string | undefined;
  readonly name: string | undefined;
  /** Info format; undefined = none (clears the keys/types of an earlier definition). */
  readonly format: string | undefined;
}

export class CategoryTable {
  readonly entries: ConvCategory[] = [];
  /** etype → index·8 + role, for etypes outside the dense range. */
  private readonly handlers = new Map<number, number>();
  /** The same for etypes in [DENSE_MIN, DENSE_MAX): index·8 + role + 1, 0 = none (hot-path lookup). */
  private readonly dense = new Int32Array(DENSE_MAX - DENSE_MIN);
  private readonly palette = new DefaultPalette();
  private finished: Category[] | undefined;
  readonly warnings: string[] = [];

  /** Creates the arrow category `message` (index 0) for the given send/receive etypes. */
  addArrowCategory(send: number, receive: number): number {
    const index = this.create('arrow', 'message', WHITE, true);
    const c = this.entries[index]!.category;
    c.width = 3;
    const layout = parseInfoFormat('msg_tag=%d, msg_size=%d');
    c.infoKeys = layout.keys;
    c.infoTypes = layout.types;
    this.register(send, index * 8 + Role.Send);
    this.register(receive, index * 8 + Role.Receive);
    return index;
  }

  addStatePlaceholder(start: number, final: number): number {
    const index = this.create('state', undefined, PINK, false);
    this.register(start, index * 8 + Role.Start);
    this.register(final, index * 8 + Role.Final);
    return index;
  }

  addSoloPlaceholder(etype: number): number {
    const index = this.create('event', undefined, PINK, false);
    this.register(etype, index * 8 + Role.Solo);
    return index;
  }

  /**
   * A copy to define and finish on the side (a snapshot's categories: slog2/writer/snapshot.ts),
   * this table untouched. Categories are copied; their info layouts are replaced, never changed.
   */
  copy(): CategoryTable {
    const t = new CategoryTable();
    for (const e of this.entries) t.entries.push({ ...e, category: { ...e.category } });
    for (const [etype, code] of this.handlers) t.handlers.set(etype, code);
    t.dense.set(this.dense);
    return t;
  }

  /** Drawables per used category index. */
  counts(): Map<number, number> {
    const m = new Map<number, number>();
    for (const e of this.entries) if (e.drawables > 0) m.set(e.category.index, e.drawables);
    return m;
  }

  /** Handler code (index·8 + role) of an etype, or −1. */
  handler(etype: number): number {
    if (etype >= DENSE_MIN && etype < DENSE_MAX) return this.dense[etype - DENSE_MIN]! - 1;
    const h = this.handlers.get(etype);
    return h === undefined ? -1 : h;
  }

  private register(etype: number, code: number): void {
    if (etype >= DENSE_MIN && etype < DENSE_MAX) this.dense[etype - DENSE_MIN] = code + 1;
    // Etypes outside the dense range go to the map (this used to recurse into register() forever:
    // any such etype in a file, e.g. a corrupt one, overflowed the stack; found by the fuzzer).
    else this.handlers.set(etype, code);
  }

  /** STATEDEF (§11.2). Returns a warning text when the definition is ignored. */
  defineState(start: number, final: number, def: Definition): void {
    const hs = this.handler(start);
    const hf = this.handler(final);
    if (hs < 0 || hf < 0) {
      const index = this.create('state', def.name, PINK, def.name !== undefined);
      this.apply(index, def);
      this.entries[index]!.stateDefs++;
      this.register(start, index * 8 + Role.Start);
      this.register(final, index * 8 + Role.Final);
      return;
    }
    const index = hs >> 3;
    if (index !== hf >> 3) {
      this.warn(`STATEDEF ${def.name ?? '?'} (${start}, ${final}): the etypes belong to two different categories; ignored`);
      return;
    }
    const entry = this.entries[index]!;
    if (entry.category.topology !== 'state') {
      this.warn(`STATEDEF ${def.name ?? '?'} (${start}, ${final}) names a ${entry.category.topology} category; ignored`);
      return;
    }
    this.apply(index, def);
    entry.stateDefs++;
  }

  /** EVENTDEF (§11.2). */
  defineEvent(etype: number, def: Definition): void {
    const h = this.handler(etype);
    if (h < 0) {
      const index = this.create('event', def.name, PINK, def.name !== undefined);
      this.apply(index, def);
      this.register(etype, index * 8 + Role.Solo);
      return;
    }
    const index = h >> 3;
    if (this.entries[index]!.category.topology !== 'event') {
      this.warn(`EVENTDEF ${def.name ?? '?'} (${etype}) names a ${this.entries[index]!.category.topology} category; ignored`);
      return;
    }
    this.apply(index, def);
  }

  /** A solo-event category `UnknownType-e<etype>` for an event etype nobody registered (§11.6). */
  addUnknownSolo(etype: number): number {
    const index = this.create('event', `UnknownType-e${etype}`, PINK, true);
    this.entries[index]!.needsPaletteColor = true;
    this.register(etype, index * 8 + Role.Solo);
    return index;
  }

  /**
   * Gives unnamed used categories their `UnknownType-<index>` name and palette colour, and
   * unknown colour names a palette colour, in index order. Returns the used categories.
   */
  finish(): Category[] {
    if (this.finished !== undefined) return this.finished;
    const used: Category[] = [];
    for (const e of this.entries) {
      if (e.drawables === 0) continue;
      const c = e.category;
      if (!e.named) {
        c.name = `UnknownType-${c.index}`;
        c.rgba = this.palette.next();
      } else if (e.needsPaletteColor) {
        c.rgba = this.palette.next();
      }
      used.push(c);
    }
    this.finished = used;
    return used;
  }

  private create(topology: Topology, name: string | undefined, rgba: Rgba, named: boolean): number {
    const index = this.entries.length;
    const category: Category = {
      index,
      name: name ?? `UnknownType-${index}`,
      topology,
      rgba,
      modifiable: true,
      width: 1,
      infoKeys: [],
      infoTypes: '',
      methods: [],
    };
    this.entries.push({ category, named, needsPaletteColor: false, stateDefs: 0, drawables: 0, infoLocation: undefined });
    return index;
  }

  private apply(index: number, def: Definition): void {
    const entry = this.entries[index]!;
    const c = entry.category;
    if (def.name !== undefined) {
      c.name = def.name;
      entry.named = true;
    } else {
      // Name absent: the writer will call it UnknownType-<index>.
      entry.named = false;
      c.name = `UnknownType-${index}`;
    }
    const rgb = def.color === undefined ? undefined : x11Color(cutPatternSuffix(def.color));
    if (rgb === undefined) {
      if (def.color !== undefined && def.name !== undefined) this.warn(`unknown colour name "${def.color}" for ${def.name}; using a palette colour`);
      entry.needsPaletteColor = true;
    } else {
      c.rgba = [rgb[0], rgb[1], rgb[2], 255];
      entry.needsPaletteColor = false;
    }
    const layout = parseInfoFormat(def.format);
    c.infoKeys = layout.keys;
    c.infoTypes = layout.types;
    entry.infoLocation = infoLocationSlots(layout.keys, layout.types);
  }

  private warn(text: string): void {
    if (this.warnings.length < 1000) this.warnings.push(text);
  }
}

/** Old pattern suffixes after ':' ("yellow:dimple3") are not part of the colour name. */
export function cutPatternSuffix(color: string): string {
  const colon = color.indexOf(':');
  return colon < 0 ? color : color.slice(0, colon);
}
