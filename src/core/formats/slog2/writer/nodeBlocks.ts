/**
 * A tree node's block (SLOG2.md §7: header, nestless and nestable lists, the children's shadow
 * buffers) encoded into the writer's output, its children's shadows merged into its own buffer
 * as they are written. A big block goes out in parts of at most `partBytes` (on a wide trace a
 * high node holds its children's full-width shadows, MBs of them) unless it is wanted whole.
 */
import { NESTABLE_LIST, NESTLESS_LIST, type SourceLocationTableBuilder } from '../../srcloc/table';
import type { ByteWriter } from './byteWriter';
import { encodeEntry } from './drawableBatchBytes';
import { drawingOrderOf } from './drawingOrder';
import { NODE_FIXED_BYTES, writeNodeHeader, writeShadowBufferInParts, type BlockPointer } from './encode';
import type { NodeDrawables } from './nodeDrawables';
import { NodeListKernel, type SiteSink } from './nodeListKernel';
import type { OpenNode } from './openNode';
import type { OutputBlocks } from './outputBlocks';

export class NodeBlocks {
  /** Scratch: entry indices of one node list. */
  private subset = new Uint32Array(1024);
  /** Orders and encodes a node's lists in WebAssembly; undefined: in JS (writeList). */
  private readonly kernel: NodeListKernel | undefined;

  constructor(
    private readonly out: OutputBlocks,
    private readonly partBytes: number,
    useKernel = true,
  ) {
    this.kernel = useKernel ? NodeListKernel.create() : undefined;
  }

  /**
   * Encodes `node` as the block at `self` (`self.size` bytes, its children's byteSize() included)
   * and merges its children's shadows into its own buffer, releasing them (a spilled child is read
   * back for its turn: writing a child reads only the child, so one at a time does). Returns the
   * whole block's writer, or undefined when it went out in parts (only if `whole` is false).
   */
  write(node: OpenNode, self: BlockPointer, sites: SourceLocationTableBuilder, whole: boolean): ByteWriter | undefined {
    const size = self.size;
    const inParts = size > this.partBytes && !whole;
    const headBytes = NODE_FIXED_BYTES + node.drawableBytes + 4;
    const w = this.out.reserve(inParts ? headBytes : size, !inParts);
    if (inParts) this.out.countBlock(size);
    const next = inParts ? (bytes: number): ByteWriter => this.out.reserve(bytes, false) : (): ByteWriter => w;
    writeNodeHeader(w, node.earliest, node.latest, node.depth, node.xpos, self);
    if (this.kernel?.writeLists(w, node.drawables.columns, node.drawableBytes, sites) !== true) {
      this.writeList(w, node.drawables, NESTLESS_LIST, sites);
      this.writeList(w, node.drawables, NESTABLE_LIST, sites);
    }
    const own = node.buffer;
    const children = node.childBuffers;
    if (children.length > 0) {
      // The merged rows: about the widest child's (every node covers every timeline), a little more.
      let rows = own.count;
      let arena = own.arenaWords;
      for (const b of children) {
        rows = Math.max(rows, b.count);
        arena = Math.max(arena, b.arenaWords);
      }
      own.reserve(rows + (rows >> 2), arena + (arena >> 2));
    }
    w.i32(children.length);
    if (inParts && w.pos !== headBytes)
      throw new Error(`internal error: node (${node.depth}, ${node.xpos}) head encoded ${w.pos} bytes, expected ${headBytes}`);
    for (const b of children) {
      b.restore();
      writeShadowBufferInParts(next, b, this.partBytes);
      own.mergeChild(b);
      b.release();
    }
    const written = inParts ? this.out.offset - self.fptr : w.pos;
    if (written !== size) throw new Error(`internal error: node (${node.depth}, ${node.xpos}) encoded ${written} bytes, expected ${size}`);
    return inParts ? undefined : w;
  }

  /** One node list (§7.3) in drawing order, noting where located drawables end up. */
  writeList(w: ByteWriter, drawables: NodeDrawables, which: number, sites: SiteSink): void {
    const entries = drawables.columns;
    const wanted = which === NESTABLE_LIST ? 1 : 0;
    if (this.subset.length < entries.count) this.subset = new Uint32Array(Math.max(entries.count, this.subset.length * 2));
    const subset = this.subset;
    let n = 0;
    const nestable = entries.nestable;
    for (let i = 0; i < entries.count; i++) if (nestable[i] === wanted) subset[n++] = i;
    const order = drawingOrderOf(entries, subset, n);
    w.i32(n);
    const out = w.bytes;
    const view = w.dataView;
    let at = w.pos;
    const info = entries.info;
    const infoView = new DataView(info.buffer, info.byteOffset, info.byteLength);
    const siteStart = entries.siteStart;
    const siteEnd = entries.siteEnd;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      at = encodeEntry(entries, i, view, out, at, infoView);
      const a = siteStart[i]!;
      const z = siteEnd[i]!;
      if (a >= 0 || z >= 0) sites.addSites(which, k, a, z);
    }
    w.pos = at;
  }
}
