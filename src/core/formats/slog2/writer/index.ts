export { Slog2Writer, type Slog2WriterOptions, type Slog2Trailer, type Slog2WriteSummary } from './slog2Writer';
export { MemorySink, type OutputSink } from './sink';
export { compareDrawables } from './drawingOrder';
export { writeConversion, type WriteConversionOptions } from './writeConversion';
