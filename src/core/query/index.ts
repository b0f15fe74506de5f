export * from './windowKey';
export * from './rows';
export * from './nesting';
export * from './lod';
export * from './buildWindow';
export * from './windowService';
