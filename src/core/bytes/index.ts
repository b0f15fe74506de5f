export * from './byteSource';
export * from './binaryReader';
export * from './formatError';
export * from './memorySource';
