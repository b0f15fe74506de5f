/**
 * A search's count from a tree node's decoded columns (nodeColumns.ts) instead of its drawable
 * objects: the matcher's test taken apart (MatchPlan) is applied while the node is decoded, so a
 * drawable matched by its category's name (or a query without text) is counted without being
 * copied, and only the drawables whose popup text decides are kept, with their info bytes. The
 * object reader made every drawable of a 1 GB file an object to count them (34 s in the worker).
 *
 * The same verdicts as `DrawableMatcher.test` (a test compares the two over real traces): a node
 * with a composite drawable, or one the columns cannot decode, is counted from its objects instead.
 */
import { isFormatError } from '../bytes/formatError';
import { grown } from '../bytes/grown';
import { decodeNodeColumns } from '../formats/slog2/nodeColumns';
import type { Category } from '../model/types';
import { PlanVerdict, type MatchPlan } from './matcher';

/** What a count from columns needs of the reader (Slog2File has it). */
export interface ColumnCountTree {
  readonly categories: ReadonlyMap<number, Category>;
  readonly source: { readonly name: string };
  /** The block's bytes, valid until the next read. */
  readBlockView(fb: { readonly fptr: number; readonly size: number }, what: string): Promise<Uint8Array>;
  /** Registers a category index met in a node (the object reader adds placeholders for unknown ones). */
  seeCategory(index: number, offset: number): void;
}

export interface NodeBlock {
  readonly depth: number;
  readonly xpos: number;
  readonly fptr: number;
  readonly size: number;
}

/** Counts nodes' matches from their columns; the verdict of each category is asked once. */
export class ColumnCounter {
  private readonly verdicts = new Map<number, PlanVerdict>();
  /** Start times of the node's matches (reused). */
  private starts: Float64Array<ArrayBuffer> = new Float64Array(1024);

  constructor(
    private readonly tree: ColumnCountTree,
    private readonly plan: MatchPlan,
  ) {}

  /**
   * Calls `matched(earliest)` for each match in the node and returns how many; undefined (nothing
   * called) when the node must be counted from its objects.
   */
  async countNode(info: NodeBlock, matched: (earliest: number) => void): Promise<number | undefined> {
    const { tree, plan } = this;
    const bytes = await tree.readBlockView(info, `tree node (${info.depth},${info.xpos})`);
    let n = 0;
    let composite = false;
    const keep = (category: number, _line0: number, earliest: number, latest: number, _primitives: number, isComposite: boolean): boolean => {
      if (isComposite) {
        // its members' categories and its own info: the object reader's
        composite = true;
        return false;
      }
      if (!tree.categories.has(category)) tree.seeCategory(category, info.fptr);
      const verdict = this.verdictOf(category);
      if (verdict === PlanVerdict.None) return false;
      const duration = latest - earliest;
      if (duration < plan.minDuration || duration > plan.maxDuration) return false;
      if (verdict === PlanVerdict.Info) return true;
      if (n === this.starts.length) this.starts = grown(this.starts, n + 1);
      this.starts[n++] = earliest;
      return false;
    };
    let columns;
    try {
      columns = decodeNodeColumns(bytes, info.fptr, tree.source.name, undefined, [], keep, true);
    } catch (e) {
      // the object reader says what is wrong with the node, in its words
      if (isFormatError(e)) return undefined;
      throw e;
    }
    if (composite) return undefined;
    const { firstRow, drawableCategory, drawableEarliest, infoStart, infoLength, info: infoBytes } = columns;
    for (let i = 0; i < columns.drawables; i++) {
      const r = firstRow[i]!;
      const length = infoLength[r]!;
      const bytesOf = length > 0 ? infoBytes.subarray(infoStart[r]!, infoStart[r]! + length) : undefined;
      if (!plan.testInfo(drawableCategory[i]!, bytesOf)) continue;
      if (n === this.starts.length) this.starts = grown(this.starts, n + 1);
      this.starts[n++] = drawableEarliest[i]!;
    }
    for (let k = 0; k < n; k++) matched(this.starts[k]!);
    return n;
  }

  private verdictOf(category: number): PlanVerdict {
    let v = this.verdicts.get(category);
    if (v === undefined) this.verdicts.set(category, (v = this.plan.verdict(category)));
    return v;
  }
}
