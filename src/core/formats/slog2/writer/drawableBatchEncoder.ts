/**
 * Drawable objects → DrawableBatch columns (drawableBatch.ts), validated against the writer's input
 * contract on the way in, with source locations interned into dense site indices.
 */
import type { Drawable, Primitive, SourceLocation, Topology } from '../../../model/types';
import type { PrimitiveParts } from '../../convert/pendingPrimitives';
import { STATE, topologyNumber } from './shadows';
import { IntSet } from './intSet';
import { BATCH_ENTRIES, adoptDrawableBatch, copyInfo, hasRoom, makeRoom, newDrawableBatch, resetDrawableBatch, type DrawableBatch } from './drawableBatch';

/** Entries of an encoder's first batch (see `batch`). */
const FIRST_BATCH_ENTRIES = 512;

/** Interns source locations into dense site indices (one per distinct file + line). */
class SiteInterner {
  private readonly byKey = new Map<string, number>();
  /** Converters intern locations (one object per site): identity lookups skip the string key. */
  private readonly byObject = new Map<SourceLocation, number>();
  count = 0;

  /** The last location looked up and its index: runs of drawables from one call site are common. */
  private lastLoc: SourceLocation | undefined;
  private lastIndex = -1;

  /** The site index of `loc`; a site seen for the first time is appended to `added`. */
  site(loc: SourceLocation, added: SourceLocation[]): number {
    if (loc === this.lastLoc) return this.lastIndex;
    const i = this.lookup(loc, added);
    this.lastLoc = loc;
    this.lastIndex = i;
    return i;
  }

  private lookup(loc: SourceLocation, added: SourceLocation[]): number {
    const known = this.byObject.get(loc);
    if (known !== undefined) return known;
    const key = `${loc.line}\u0000${loc.file}`;
    let i = this.byKey.get(key);
    if (i === undefined) {
      i = this.count++;
      this.byKey.set(key, i);
      added.push({ file: loc.file, line: loc.line });
    }
    if (this.byObject.size < 1 << 16) this.byObject.set(loc, i);
    return i;
  }
}

/**
 * Validates drawables against the writer's input contract and appends them to batches, sealing a
 * batch when it is full. Throws a RangeError naming the drawable (its position in the stream) for
 * anything the SLOG-2 format or the one-pass tree cannot hold.
 */
export class DrawableBatchEncoder {
  /**
   * The first batch is small (FIRST_BATCH_ENTRIES): sealed before V8 optimises addParts, and given
   * to the writer sooner; a full first batch met both the seal and the writer's exits from its
   * batch loop with no feedback in optimised code, which was thrown away (and recompiled) for them.
   */
  private batch: DrawableBatch = newDrawableBatch(FIRST_BATCH_ENTRIES);
  /**
   * The current batch's capacities (its arrays' lengths), kept as the batch changes (seal,
   * roomFor): the checks made per entry read these numbers instead of four arrays' lengths.
   */
  private capEntries = 0;
  private capPrimitives = 0;
  private capVertices = 0;
  private capInfo = 0;
  private readonly spare: DrawableBatch[] = [];
  private readonly ready: DrawableBatch[] = [];
  private readonly sites = new SiteInterner();
  /** Topology code + 1 by category index (0 = not looked up yet), for indices in [0, 65536). */
  private readonly topologyByCategory = new Int8Array(1 << 16);
  private readonly topologyCache = new Map<number, number>();
  private lastLatest = -Infinity;
  private added = 0;
  /** Categories and lineIDs of the entries added so far (what a batch's new ones are new against). */
  private readonly usedCategories = new IntSet(1 << 16);
  private readonly usedLineIDs = new IntSet();
  /** Topologies of the current batch's primitives (its `topologies` once sealed). */
  private batchTopologies = 0;

  constructor(private readonly topologyOf: (category: number) => Topology | undefined) {
    this.noteCapacity();
  }

  /** Drawables encoded so far. */
  get drawables(): number {
    return this.added;
  }

  /** Drawables encoded but not yet handed over (sealed batches included). */
  get pending(): number {
    let n = this.batch.count;
    for (const b of this.ready) n += b.count;
    return n;
  }

  /** Batches sealed and not yet taken. */
  get readyCount(): number {
    return this.ready.length;
  }

  /** The oldest sealed batch, if any (batches seal themselves when full). */
  takeReady(): DrawableBatch | undefined {
    return this.ready.shift();
  }

  /** Seals the current batch if it holds anything (end of input, or before a drain). */
  flush(): void {
    if (this.batch.count > 0) this.seal();
  }

  /** Gives a consumed batch back for reuse. */
  recycle(b: DrawableBatch): void {
    // the small first batch is not reused
    if (this.spare.length < 4 && b.earliest.length >= BATCH_ENTRIES) this.spare.push(adoptDrawableBatch(b));
  }

  /**
   * Would `d`'s times be accepted? (The time checks add() makes, for callers that drop bad input
   * instead of failing.)
   */
  acceptsTimes(d: Drawable): boolean {
    return d.earliest <= d.latest && Number.isFinite(d.earliest) && Number.isFinite(d.latest) && d.latest >= this.lastLatest;
  }

  /** Would a drawable spanning [earliest, latest] be accepted next? (acceptsTimes without the object.) */
  acceptsSpan(earliest: number, latest: number): boolean {
    return earliest <= latest && Number.isFinite(earliest) && Number.isFinite(latest) && latest >= this.lastLatest;
  }

  /** Appends one drawable (arrival order: non-decreasing latest time). */
  add(d: Drawable): void {
    this.checkTimes(d.category, d.earliest, d.latest);
    if (d.kind === 'primitive') this.addPrimitiveEntry(d);
    else this.addComposite(d);
    this.added1(d.latest);
  }

  /**
   * Appends one primitive of one or two vertices given by its parts, as `add` would the same
   * primitive as an object (the converters' path: no object per drawable).
   */
  addParts(p: PrimitiveParts): void {
    const { category, earliest, latest, vertices, l0, info } = p;
    this.checkTimes(category, earliest, latest);
    const infolen = info ? info.length : 0;
    if (infolen > 32767) throw new RangeError(`drawable ${this.added}: info buffer of ${infolen} bytes exceeds 32767`);
    let b = this.batch;
    if (!(
      b.count < this.capEntries &&
      b.primitives < this.capPrimitives &&
      b.vertices + vertices <= this.capVertices &&
      b.infoUsed + infolen <= this.capInfo
    )) {
      b = this.roomFor(1, vertices, infolen);
    }
    const i = b.count;
    const topology = this.topology(category);
    b.earliest[i] = earliest;
    b.latest[i] = latest;
    b.category[i] = category;
    b.startLine[i] = l0;
    b.finalLine[i] = vertices === 2 ? p.l1 : l0;
    b.nestable[i] = topology === STATE ? 1 : 0;
    b.kind[i] = 0;
    b.entryBytes[i] = 9 + infolen + 12 * vertices;
    b.siteStart[i] = p.start !== undefined ? this.sites.site(p.start, b.newSites) : -1;
    b.siteEnd[i] = p.end !== undefined ? this.sites.site(p.end, b.newSites) : -1;
    let v = this.primitiveColumns(b, category, earliest, latest, topology, info);
    b.vertexTime[v] = p.t0;
    b.vertexLine[v++] = l0;
    this.noteLine(b, l0);
    if (vertices === 2) {
      b.vertexTime[v] = p.t1;
      b.vertexLine[v++] = p.l1;
      this.noteLine(b, p.l1);
    }
    this.endPrimitive(b, v);
    b.count = i + 1;
    b.primitiveStart[i + 1] = b.primitives;
    this.added1(latest);
  }

  private checkTimes(category: number, earliest: number, latest: number): void {
    if (!(earliest <= latest) || earliest === -Infinity || latest === Infinity) {
      throw new RangeError(`drawable ${this.added} (category ${category}) has invalid time bounds [${earliest}, ${latest}]`);
    }
    if (latest < this.lastLatest) {
      throw new RangeError(
        `drawable ${this.added} (category ${category}) ends at ${latest}, before the previous one (${this.lastLatest}): input must be in non-decreasing end time`,
      );
    }
  }

  /** After an entry: counts it and seals the batch when full. */
  private added1(latest: number): void {
    this.lastLatest = latest;
    this.added++;
    const b = this.batch;
    if (b.count === this.capEntries || b.infoUsed > this.capInfo - 4096) this.seal();
  }

  private addPrimitiveEntry(d: Primitive): void {
    const size = this.checkPrimitive(d);
    const nverts = d.vertices.length;
    const infolen = d.info ? d.info.length : 0;
    let b = this.batch;
    if (!hasRoom(b, 1, nverts, infolen)) b = this.roomFor(1, nverts, infolen);
    const i = b.count;
    const topology = this.topology(d.category);
    b.earliest[i] = d.earliest;
    b.latest[i] = d.latest;
    b.category[i] = d.category;
    b.startLine[i] = d.vertices[0]!.lineID;
    b.finalLine[i] = d.vertices[nverts - 1]!.lineID;
    b.nestable[i] = topology === STATE ? 1 : 0;
    b.kind[i] = 0;
    b.entryBytes[i] = 1 + size;
    let siteStart = -1;
    let siteEnd = -1;
    const source = d.source;
    if (source) {
      if (source.start) siteStart = this.sites.site(source.start, b.newSites);
      if (source.end) siteEnd = this.sites.site(source.end, b.newSites);
    }
    b.siteStart[i] = siteStart;
    b.siteEnd[i] = siteEnd;
    this.appendPrimitive(b, d, topology);
    b.count = i + 1;
    b.primitiveStart[i + 1] = b.primitives;
  }

  private addComposite(d: Drawable & { kind: 'composite' }): void {
    if (d.primitives.length === 0 || d.primitives.length > 32767) throw new RangeError(`composite ${this.added} has ${d.primitives.length} members`);
    const ownInfo = d.info ? d.info.length : 0;
    if (ownInfo > 32767) throw new RangeError(`drawable ${this.added}: info buffer of ${ownInfo} bytes exceeds 32767`);
    let size = 8 + ownInfo;
    let nverts = 0;
    let infolen = ownInfo;
    for (const p of d.primitives) {
      size += this.checkPrimitive(p);
      nverts += p.vertices.length;
      infolen += p.info ? p.info.length : 0;
    }
    let b = this.batch;
    if (!hasRoom(b, d.primitives.length, nverts, infolen)) b = this.roomFor(d.primitives.length, nverts, infolen);
    // after roomFor: into the batch that takes the composite
    this.noteCategory(b, d.category);
    const i = b.count;
    const first = d.primitives[0]!;
    const last = d.primitives[d.primitives.length - 1]!;
    b.earliest[i] = d.earliest;
    b.latest[i] = d.latest;
    b.category[i] = d.category;
    b.startLine[i] = first.vertices[0]!.lineID;
    b.finalLine[i] = last.vertices[last.vertices.length - 1]!.lineID;
    b.nestable[i] = 1;
    b.kind[i] = 1;
    b.entryBytes[i] = 1 + size;
    b.siteStart[i] = -1;
    b.siteEnd[i] = -1;
    b.entryInfoStart[i] = b.infoUsed;
    if (d.info) {
      b.info.set(d.info, b.infoUsed);
      b.infoUsed += d.info.length;
    }
    b.entryInfoEnd[i] = b.infoUsed;
    for (const m of d.primitives) this.appendPrimitive(b, m, this.topology(m.category));
    b.count = i + 1;
    b.primitiveStart[i + 1] = b.primitives;
  }

  /** The current batch, sealed first if it cannot take the entry, grown if even an empty one cannot. */
  private roomFor(primitives: number, vertices: number, infoBytes: number): DrawableBatch {
    if (this.batch.count > 0) this.seal();
    const b = this.batch;
    if (!hasRoom(b, primitives, vertices, infoBytes)) {
      makeRoom(b, primitives, vertices, infoBytes);
      this.noteCapacity();
    }
    return b;
  }

  private noteCapacity(): void {
    const b = this.batch;
    this.capEntries = b.earliest.length;
    this.capPrimitives = b.primTopology.length;
    this.capVertices = b.vertexTime.length;
    this.capInfo = b.info.length;
  }

  private seal(): void {
    this.batch.topologies = this.batchTopologies;
    this.batchTopologies = 0;
    this.ready.push(this.batch);
    this.batch = this.spare.pop() ?? newDrawableBatch();
    resetDrawableBatch(this.batch, this.sites.count);
    this.noteCapacity();
  }

  /**
   * What entries use, noted as they are added (DrawableBatch.topologies): a batch lists the
   * categories and lineIDs no batch before it used. A pass over each sealed batch's columns
   * (~52 ms of the converter thread at 2 ranks, 4.5 M drawables) is now a byte compare per value.
   */
  private noteCategory(b: DrawableBatch, c: number): void {
    if (this.usedCategories.addNew(c)) b.newCategories.push(c);
  }

  private noteLine(b: DrawableBatch, l: number): void {
    if (this.usedLineIDs.addNew(l)) b.newLineIDs.push(l);
  }

  /** §7.2 limits; returns the body size 8 + infolen + 12·nverts. */
  private checkPrimitive(p: Primitive): number {
    const nverts = p.vertices.length;
    if (nverts === 0 || nverts > 32767) throw new RangeError(`drawable ${this.added}: ${nverts} vertices`);
    const infolen = p.info ? p.info.length : 0;
    if (infolen > 32767) throw new RangeError(`drawable ${this.added}: info buffer of ${infolen} bytes exceeds 32767`);
    return 8 + infolen + 12 * nverts;
  }

  private topology(category: number): number {
    if (category >= 0 && category < 65536) {
      const cached = this.topologyByCategory[category]!;
      if (cached !== 0) return cached - 1;
    }
    let t = this.topologyCache.get(category);
    if (t === undefined) {
      const topo = this.topologyOf(category);
      if (topo === undefined) throw new RangeError(`drawable ${this.added} uses category ${category}, which has no known topology`);
      t = topologyNumber(topo);
      this.topologyCache.set(category, t);
      if (category >= 0 && category < 65536) this.topologyByCategory[category] = t + 1;
    }
    return t;
  }

  /** Appends a primitive's columns (room already made). */
  private appendPrimitive(b: DrawableBatch, d: Primitive, topology: number): void {
    let v = this.primitiveColumns(b, d.category, d.earliest, d.latest, topology, d.info);
    const vs = d.vertices;
    for (let j = 0; j < vs.length; j++, v++) {
      const x = vs[j]!;
      b.vertexTime[v] = x.time;
      b.vertexLine[v] = x.lineID;
      this.noteLine(b, x.lineID);
    }
    this.endPrimitive(b, v);
  }

  /** The next primitive's columns and info bytes; returns where its vertices go. */
  private primitiveColumns(b: DrawableBatch, category: number, earliest: number, latest: number, topology: number, info: Uint8Array | undefined): number {
    const k = b.primitives;
    b.primTopology[k] = topology;
    b.primCategory[k] = category;
    this.batchTopologies |= 1 << topology;
    this.noteCategory(b, category);
    b.primEarliest[k] = earliest;
    b.primLatest[k] = latest;
    let at = b.infoUsed;
    b.primInfoStart[k] = at;
    if (info !== undefined) {
      at = copyInfo(info, 0, info.length, b.info, at);
      b.infoUsed = at;
    }
    b.primInfoEnd[k] = at;
    return b.vertices;
  }

  /** Closes the primitive whose vertices end before `v`. */
  private endPrimitive(b: DrawableBatch, v: number): void {
    b.vertices = v;
    const k = b.primitives + 1;
    b.primitives = k;
    b.vertexStart[k] = v;
  }
}
