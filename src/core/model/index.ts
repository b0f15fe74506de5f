export * from './types';
export * from './infoFormat';
export * from './javaNumber';
