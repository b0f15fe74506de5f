export * from './recordedPath';
export * from './mappings';
export * from './resolve';
export * from './glob';
export * from './trust';
