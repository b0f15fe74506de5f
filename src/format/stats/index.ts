export * from './types';
export * from './rangeStats';
export * from './summaryStats';
export * from './tables';
export { rowNaming, type RowNaming } from './rowLabels';
export { compareDrawingOrder } from './nesting';
export { nodeBatches, type NodeSliceLike } from './nodeBatches';
export { messageTagAndSize } from './messages';
export { chooseApproximateLevel, DEFAULT_EXACT_LEAVES, DEFAULT_NODE_BUDGET, type LevelOptions } from './approximateLevel';
