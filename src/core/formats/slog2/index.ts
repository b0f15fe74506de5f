export * from './header';
export * from './categoryMap';
export * from './lineIDMaps';
export * from './treeDir';
export * from './treeNode';
export * from './drawingOrder';
export * from './slog2File';
export * from './levelOfDetail';
