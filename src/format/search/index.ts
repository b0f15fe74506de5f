export * from './matcher';
export * from './treeSearch';
