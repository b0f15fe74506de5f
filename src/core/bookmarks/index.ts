export * from './sidecar';
export * from './edits';
export * from './store';
