/**
 * The SLOG-1 file's own facts (SLOG1.md §3–§10) as plain data: what `mpe-trace info --json`
 * prints under `slog1` and what crosses the worker boundary with the conversion summary.
 */

export interface Slog1Header {
  readonly versionMajor: number;
  readonly versionMinor: number;
  /** Size of every frame on disk. */
  readonly frameBytes: number;
  readonly frameReservedBytes: number;
  readonly maxFramesPerDir: number;
  readonly increasingStarttime: boolean;
  readonly increasingEndtime: boolean;
  readonly reserveSpaceUsed: boolean;
  readonly fptr: {
    readonly statistics: number;
    readonly preview: number;
    readonly profile: number;
    readonly threadTable: number;
    readonly recordDefinitions: number;
    readonly frameData: number;
  };
}

export interface Slog1Thread {
  readonly node: number;
  readonly thread: number;
  readonly osProcess: number;
  readonly osThread: number;
  readonly app: number;
}

export interface Slog1ProfileEntry {
  readonly intvltype: number;
  /** "state" or "message" in the files of clog2slog. */
  readonly classtype: string;
  readonly label: string;
  /** X11 colour name, optionally ":bitmap" (e.g. "yellow:dimple3"). */
  readonly color: string;
}

export interface Slog1RecordDefinition {
  readonly intvltype: number;
  readonly bebit0: number;
  readonly bebit1: number;
  readonly nAssocs: number;
  readonly nArgs: number;
}

export interface Slog1Frame {
  readonly offset: number;
  readonly start: number;
  readonly end: number;
}

/** One set of the preview statistics: per bin, the summed overlap of the type's real records (in bin widths). */
export interface Slog1PreviewSet {
  readonly rectype: number;
  readonly intvltype: number;
  readonly label: string;
  readonly bins: readonly number[];
}

/** The preview statistics (SLOG1.md §10): the whole trace's activity per type over time, ready-made. */
export interface Slog1PreviewStatistics {
  readonly start: number;
  readonly end: number;
  readonly bins: number;
  readonly sets: readonly Slog1PreviewSet[];
}

export interface Slog1Facts {
  readonly header: Slog1Header;
  readonly previewBytes: number;
  readonly threads: readonly Slog1Thread[];
  readonly profile: readonly Slog1ProfileEntry[];
  readonly recordDefinitions: readonly Slog1RecordDefinition[];
  readonly frames: readonly Slog1Frame[];
  /** Records per sector over all frames (CUR + INC = the real records; PAS + OUT = copies). */
  readonly sectorRecords: { readonly CUR: number; readonly INC: number; readonly PAS: number; readonly OUT: number };
  /** Undefined when the writer did not finish the section (0 sets or 0 bins). */
  readonly previewStatistics: Slog1PreviewStatistics | undefined;
  /** Whether records carry the optional 8-byte "where" field (SLOG1.md §9.3). */
  readonly recordsHaveWhere: boolean;
}
