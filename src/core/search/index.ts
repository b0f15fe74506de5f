export * from './matcher';
export * from './treeSearch';
export * from './searchSession';
