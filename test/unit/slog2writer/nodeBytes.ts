// A node block with its category-weight lists put in a canonical order, for comparing nodes whose
// weights with equal incl ratios were written in a different (hash-dependent) order.
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { parseTreeNode } from '../../../src/core/formats/slog2/treeNode';
import type { Slog2Version } from '../../../src/core/formats/slog2/header';

// `ignoreOffsets`: also blank the node's and its child stubs' file offsets (files whose nodes
// moved because other bytes sit between them).
export function canonicalNode(bytes: Uint8Array, version: Slog2Version, ignoreOffsets = false): unknown {
  const node = parseTreeNode(new BinaryReader(bytes, 0, 'node'), { version, seeCategory: () => {}, warn: () => {} });
  return {
    ...node,
    header: ignoreOffsets ? { ...node.header, fptr: 0 } : node.header,
    shadowBuffers: node.shadowBuffers.map((b) => ({
      child: ignoreOffsets ? { ...b.child, fptr: 0 } : b.child,
      shadows: b.shadows.map((s) => ({ ...s, weights: [...s.weights].sort((x, y) => x.incl - y.incl || x.category - y.category) })),
    })),
  };
}
