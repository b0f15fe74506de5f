/**
 * A node of the writer's open trunk (SLOG2.md §11): its drawables, already encoded, its own shadow
 * buffer, and the finished shadow buffers of its written children, kept until it is written.
 */
import { NodeDrawables } from './nodeDrawables';
import { NodeShadows } from './shadows';

/** One open node of the trunk. */
export class OpenNode {
  earliest = Infinity;
  latest = -Infinity;
  /** The node's real drawables, already encoded (nestless and nestable lists interleaved). */
  readonly drawables = new NodeDrawables();
  /** Σ (1 + drawable bytes) of the drawables held. */
  drawableBytes = 0;
  buffer = new NodeShadows();
  /** Finished shadow buffers of this node's written children, written in this node's block. */
  readonly childBuffers: NodeShadows[] = [];

  constructor(
    public depth: number,
    public xpos: number,
  ) {
    this.buffer.depth = depth;
    this.buffer.xpos = xpos;
  }

  setEarliest(t: number): void {
    this.earliest = t;
    this.buffer.earliest = t;
  }
  lowerEarliest(t: number): void {
    if (t < this.earliest) this.earliest = t;
    if (t < this.buffer.earliest) this.buffer.earliest = t;
  }
  setId(depth: number, xpos: number): void {
    this.depth = depth;
    this.xpos = xpos;
    this.buffer.depth = depth;
    this.buffer.xpos = xpos;
  }
}
