// mpe-trace: the command-line tool over the format core.
console.error('mpe-trace: not built yet');
process.exit(2);
