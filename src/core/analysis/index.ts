export * from './types';
export * from './analyze';
export { callKind, type CallKind } from './calls';
export { analysisJson, type AnalysisJson } from './json';
