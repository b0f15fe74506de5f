// worker_threads entry: conversion, indexing, search and statistics run here, off the extension
// host's event loop. The message protocol is src/protocol/worker.ts.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => {
  // Filled in with the conversion worker (issue 4).
});
