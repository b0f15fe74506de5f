export * from './table';
export * from './readSourceLocations';
