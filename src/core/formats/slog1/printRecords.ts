/**
 * A SLOG-1 file as text in the layout of Jumpshot-3's own reader's printer (`slog_print` of its
 * Java SLOG API): header, preview statistics, display profile, thread table, record
 * definitions, frame directory, then every frame with its four sectors (printed INC, PAS, CUR,
 * OUT) and every record with exact doubles (Java's Double.toString). `mpe-trace dump --records`
 * prints it; the tests compare it with the reference printer's output line for line.
 */
import { javaDouble } from '../../model/javaNumber';
import type { Slog1File, Slog1Record, Slog1Task } from './slog1File';

const pad = (label: string): string => label.padEnd(40);
const bool = (b: boolean): string => (b ? 'TRUE' : 'FALSE');

function task(t: Slog1Task): string {
  return `( ${t.node} ${t.cpu} ${t.thread} )`;
}

/** One record: `[ size rectype type ( b0, b1 ) start duration ( origin ) [( dest )] ] [assocs] [[args]]`. */
export function formatSlog1Record(r: Slog1Record): string {
  const dest = r.dest === undefined ? '' : ` ${task(r.dest)}`;
  return (
    `[ ${r.bytesize} ${r.rectype} ${r.intvltype} ( ${r.bebit0}, ${r.bebit1} ) ${javaDouble(r.start)} ${javaDouble(r.duration)} ${task(r.origin)}${dest} ] ` +
    `[${r.assocs.join(', ')}] [[${r.args.join(', ')}]]`
  );
}

/** The file's tables (everything before the frames). */
export function formatSlog1Tables(file: Slog1File): string {
  const h = file.header;
  const out: string[] = [];
  out.push('\t __SLOG_InputStream__ ', '', `\tversion = ${h.versionMajor}.${h.versionMinor}`);
  out.push(`${pad('frame byte size')}= ${h.frameBytes}`);
  out.push(`${pad('byte size of the frame reserved space')}= ${h.frameReservedBytes}`);
  out.push(`${pad('max. number of frames per directory')}= ${h.maxFramesPerDir}`);
  out.push(`${pad('Is_Increasing_Starttime_Order')}= ${bool(h.increasingStarttime)}`);
  out.push(`${pad('Is_Increasing_Endtime_Order')}= ${bool(h.increasingEndtime)}`);
  out.push(`${pad('Has_ReserveSpace()_Been_Used')}= ${bool(h.reserveSpaceUsed)}`);
  out.push(`${pad('location of Preview Statistics')}= ${h.fptr.statistics}`);
  out.push(`${pad('location of Preview')}= ${h.fptr.preview}`);
  out.push(`${pad('location of Threads Table')}= ${h.fptr.threadTable}`);
  out.push(`${pad('location of Profile')}= ${h.fptr.profile}`);
  out.push(`${pad('location of Record Definition Table')}= ${h.fptr.recordDefinitions}`);
  out.push(`${pad('location of FRAMES Data')}= ${h.fptr.frameData}`, '');
  const stats = file.previewStatistics;
  out.push('\tStatistics Preview[] = ');
  if (stats !== undefined) {
    out.push(`\tCollect At : Starttime = ${javaDouble(stats.start)}, Endtime = ${javaDouble(stats.end)}`, '');
    stats.sets.forEach((s, i) => {
      out.push(`\tPreview Statistics Set ${i}`, `\trectype = ${s.rectype},  intvltype = ${s.intvltype},  label = ${s.label}`);
      for (let b = 0; b < s.bins.length; b += 5)
        out.push(
          s.bins
            .slice(b, b + 5)
            .map((v) => `${javaDouble(v)}, `)
            .join(''),
        );
    });
  }
  out.push('', '\t', '\tSLOG_Profile :');
  for (const e of file.profile) out.push(`[ ${e.intvltype}: ${e.classtype}, ${e.label}, ${e.color} ]`);
  out.push('', '\tThreadInfos[] = ');
  for (const t of file.threads) out.push(`{ ${t.node}, ${t.thread} : ${t.osProcess}, ${t.osThread}, ${t.app} } `);
  out.push('', '\tRecDefs[] = ');
  for (const d of file.recordDefinitions) out.push(`{ ${d.intvltype}, ( ${d.bebit0}, ${d.bebit1} ) : ${d.nAssocs}, ${d.nArgs} }`);
  out.push('', '\t\t Directory :', `PrevDir at 0,   NextDir at 0,   Nframe = ${file.frames.length}`);
  for (const f of file.frames) out.push(`${f.offset} | ${javaDouble(f.start)} -> ${javaDouble(f.end)}`);
  out.push('', '');
  return out.join('\n') + '\n';
}

/** Frame `index` with its sectors in the printer's order. */
export async function formatSlog1Frame(file: Slog1File, index: number): Promise<string> {
  const fr = await file.readFrame(index);
  const c = fr.counts;
  const out: string[] = [`Main : fptr2frame = ${fr.frame.offset}`, `SLOG_Frame No. ${index}: `, '', '**** Frame Header : '];
  out.push(
    `CUR = ( ${c.CUR.bytes}, ${c.CUR.records} ),  INC = ( ${c.INC.bytes}, ${c.INC.records} ),  PAS = ( ${c.PAS.bytes}, ${c.PAS.records} ),  OUT = ( ${c.OUT.bytes}, ${c.OUT.records} ) `,
  );
  const titles = { INC: 'Incoming', PAS: 'Passing Through', CUR: 'Current', OUT: 'Outgoing' } as const;
  for (const s of ['INC', 'PAS', 'CUR', 'OUT'] as const) {
    out.push(`---- ${titles[s]} Records : `);
    for (const r of fr.records) if (r.sector === s) out.push(formatSlog1Record(r));
  }
  out.push('');
  return out.join('\n') + '\n';
}

/** The whole printout, piece by piece (one frame in memory at a time). */
export async function* printSlog1(file: Slog1File): AsyncGenerator<string> {
  yield formatSlog1Tables(file);
  for (let k = 0; k < file.frames.length; k++) yield await formatSlog1Frame(file, k);
}
