/**
 * The GL objects behind the WebGL2 painter (glPaint.ts): a program per shape mode, the shape
 * texture (the pending shapes, uploaded per draw) and the quads' index buffer, and the textures
 * the shapes sample — line strips (staged rows, uploaded per draw), the text atlas, the current
 * pattern and the current image.
 */
import { MODES, SHAPE_TEXTURE_WIDTH, SHAPE_WORDS, fragmentShader, vertexShader } from './glShaders';
import { ATLAS_PX } from './glText';
import type { GlPattern } from './glPaint';

/** Rows of the line-strip texture: a draw call takes at most this many strips. */
export const LINE_ROWS = 512;
/** Transparent columns between two coloured ones that split a line into two quads (stageLine). */
export const SPLIT_GAP = 16;
/** Transparent columns kept on each side of a line's quad (a column may be less than a device pixel). */
export const SPAN_MARGIN = 2;
/** Widest line strip (device columns; wider canvases are clipped). */
const MAX_LINE_COLS = 8192;
/** Texels of one shape in the shape texture (SHAPE_WORDS words, four a texel). */
const SHAPE_TEXELS = SHAPE_WORDS / 4;
/** Rows of the shape texture at most (and at most the GL's largest texture): 5.5 M shapes a draw. */
const MAX_SHAPE_ROWS = 8192;

/** A mode's program and its uniforms' locations. */
interface ModeProgram {
  readonly program: WebGLProgram;
  readonly size: WebGLUniformLocation | null;
  readonly patternSize: WebGLUniformLocation | null;
}

export class GlSurface {
  /** By mode (MODE's values are 0 … n − 1). */
  private readonly programs: ModeProgram[];
  /** The pending shapes (glShaders.ts SHAPE_WORDS), rows of SHAPE_TEXTURE_WIDTH texels, `shapeRows` of them allocated. */
  private readonly shapes: WebGLTexture;
  private shapeRows = 0;
  private readonly maxShapeRows: number;
  private readonly indices: WebGLBuffer;
  /** Quads the index buffer holds. */
  private indexedQuads = 0;
  private readonly vao: WebGLVertexArrayObject;
  private readonly lines: WebGLTexture;
  private readonly atlas: WebGLTexture;
  private readonly image: WebGLTexture;
  private readonly blank: WebGLTexture;
  /** Columns of the line texture and of a staged row (the canvas width, rounded up). */
  private lineCols = 0;
  private staged = new Uint32Array(0);
  private stagedCols = 0;
  private readonly patterns = new WeakMap<HTMLCanvasElement, WebGLTexture>();

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.programs = MODES.map((m) => {
      const program = link(gl, vertexShader(m), fragmentShader(m));
      gl.useProgram(program);
      ['uLines', 'uAtlas', 'uPattern', 'uImage', 'uShapes'].forEach((name, unit) => gl.uniform1i(gl.getUniformLocation(program, name), unit));
      return { program, size: gl.getUniformLocation(program, 'uSize'), patternSize: gl.getUniformLocation(program, 'uPatternSize') };
    });
    // no vertex attributes: the vertex shader reads its shape from the shape texture by gl_VertexID
    this.vao = gl.createVertexArray()!;
    gl.bindVertexArray(this.vao);
    this.shapes = texture(gl, gl.NEAREST, gl.CLAMP_TO_EDGE);
    this.maxShapeRows = Math.min(MAX_SHAPE_ROWS, Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)) || 2048);
    this.indices = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indices);
    this.lines = texture(gl, gl.NEAREST, gl.CLAMP_TO_EDGE);
    this.atlas = texture(gl, gl.NEAREST, gl.CLAMP_TO_EDGE);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, ATLAS_PX, ATLAS_PX, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    this.image = texture(gl, gl.NEAREST, gl.CLAMP_TO_EDGE);
    this.blank = texture(gl, gl.NEAREST, gl.REPEAT);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
  }

  /** Shapes one draw takes at most (the shape texture's capacity). */
  get maxShapes(): number {
    return Math.floor((this.maxShapeRows * SHAPE_TEXTURE_WIDTH) / SHAPE_TEXELS);
  }

  clear(): void {
    const gl = this.gl;
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
  }

  /** Clears a device rect (y down). */
  clearRect(x0: number, y0: number, x1: number, y1: number): void {
    const gl = this.gl;
    const H = gl.drawingBufferHeight;
    const a = Math.max(0, Math.round(x0));
    const b = Math.max(0, Math.round(y0));
    const w = Math.max(0, Math.round(x1) - a);
    const h = Math.max(0, Math.round(y1) - b);
    gl.enable(gl.SCISSOR_TEST);
    gl.scissor(a, H - b - h, w, h);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.disable(gl.SCISSOR_TEST);
  }

  readPixel(): void {
    const gl = this.gl;
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /**
   * Line strips up to `width` columns wide (the canvas's device width): called between frames
   * (nothing staged), so the texture and the staging rows can be remade.
   */
  fitLines(width: number): void {
    const cols = Math.min(MAX_LINE_COLS, Math.ceil((width + 2) / 256) * 256);
    if (cols <= this.lineCols) return;
    const gl = this.gl;
    this.lineCols = cols;
    this.staged = new Uint32Array(cols * LINE_ROWS);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.lines);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, cols, LINE_ROWS, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
  }

  /**
   * Copies columns [c0, c1) of a line (ImageData bytes as u32) into staging row `row`, and writes
   * into `spans` the column ranges worth drawing: the line split where `gap` (SPLIT_GAP) or more
   * transparent columns lie between coloured ones (a quad over them would only cost fragments:
   * a dense frame's strips on software GL were ~¾ of its time), each range kept SPAN_MARGIN
   * transparent columns wider so its sides fall inside transparent columns and every coloured
   * pixel is covered as in one quad over the line. Returns the number of ranges.
   */
  stageLine(row: number, px: Uint32Array, c0: number, c1: number, spans: Int32Array, gap = SPLIT_GAP): number {
    const end = Math.min(c1, this.lineCols);
    if (end <= c0) return 0;
    const base = row * this.lineCols;
    const staged = this.staged;
    staged.fill(0, base, base + c0);
    let n = 0;
    let first = -1;
    let last = -1;
    // ImageData bytes are not premultiplied; the texture's are
    for (let c = c0; c < end; c++) {
      const v = px[c]!;
      if (v === 0) {
        staged[base + c] = 0;
        continue;
      }
      const a = v >>> 24;
      if (a === 255) staged[base + c] = v;
      else {
        const k = a / 255;
        staged[base + c] =
          (Math.round((v & 0xff) * k) | (Math.round(((v >>> 8) & 0xff) * k) << 8) | (Math.round(((v >>> 16) & 0xff) * k) << 16) | (a << 24)) >>> 0;
      }
      if (first < 0) first = c;
      else if (c - last > gap) {
        spans[n++] = Math.max(c0, first - SPAN_MARGIN);
        spans[n++] = last + 1 + SPAN_MARGIN;
        first = c;
      }
      last = c;
    }
    if (first >= 0) {
      spans[n++] = Math.max(c0, first - SPAN_MARGIN);
      spans[n++] = Math.min(end, last + 1 + SPAN_MARGIN);
    }
    this.stagedCols = Math.max(this.stagedCols, end);
    return n >> 1;
  }

  patternTexture(image: HTMLCanvasElement): WebGLTexture | undefined {
    let t = this.patterns.get(image);
    if (t === undefined) {
      const gl = this.gl;
      t = texture(gl, gl.LINEAR, gl.REPEAT);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
      this.patterns.set(image, t);
    }
    return t;
  }

  uploadImage(image: HTMLCanvasElement, smooth: boolean): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE3);
    gl.bindTexture(gl.TEXTURE_2D, this.image);
    const filter = smooth ? gl.LINEAR : gl.NEAREST;
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
  }

  uploadAtlas(y: number, rows: ImageData): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.atlas);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, y, rows.width, rows.height, gl.RGBA, gl.UNSIGNED_BYTE, rows);
  }

  /**
   * Draws `count` shapes (`words`: SHAPE_WORDS each, in whole rows of the shape texture; at most
   * maxShapes) as quads, in order, in runs of one mode: run i is shapes runStart[i] …
   * runStart[i + 1] − 1 (the last to `count`) of mode runMode[i]. `lineRows` staged strip rows are
   * uploaded first.
   */
  draw(
    words: Uint32Array,
    count: number,
    runMode: readonly number[],
    runStart: readonly number[],
    runs: number,
    lineRows: number,
    pattern: GlPattern | undefined,
  ): void {
    const gl = this.gl;
    gl.bindVertexArray(this.vao);
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.lines);
    if (lineRows > 0 && this.stagedCols > 0) {
      const rows = new Uint8Array(this.staged.buffer, 0, lineRows * this.lineCols * 4);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      gl.pixelStorei(gl.UNPACK_ROW_LENGTH, this.lineCols);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, this.stagedCols, lineRows, gl.RGBA, gl.UNSIGNED_BYTE, rows);
      gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 0);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
      this.stagedCols = 0;
    }
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.atlas);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, pattern?.texture ?? this.blank);
    gl.activeTexture(gl.TEXTURE3);
    gl.bindTexture(gl.TEXTURE_2D, this.image);
    this.uploadShapes(words, count);
    this.indexQuads(count);
    for (let i = 0; i < runs; i++) {
      const p = this.programs[runMode[i]!]!;
      gl.useProgram(p.program);
      gl.uniform2f(p.size, gl.drawingBufferWidth, gl.drawingBufferHeight);
      gl.uniform2f(p.patternSize, pattern?.width ?? 1, pattern?.height ?? 1);
      const from = runStart[i]!;
      const to = i + 1 < runs ? runStart[i + 1]! : count;
      // six indices of four bytes a quad
      gl.drawElements(gl.TRIANGLES, (to - from) * 6, gl.UNSIGNED_INT, from * 24);
    }
  }

  /** The rows of the shape texture that hold `count` shapes, uploaded (the texture grown first if need be). */
  private uploadShapes(words: Uint32Array, count: number): void {
    const gl = this.gl;
    const rows = Math.ceil((count * SHAPE_TEXELS) / SHAPE_TEXTURE_WIDTH);
    if (rows > this.maxShapeRows) throw new Error(`WebGL2 painter: ${count} shapes in one draw, more than the shape texture holds`);
    gl.activeTexture(gl.TEXTURE4);
    gl.bindTexture(gl.TEXTURE_2D, this.shapes);
    if (rows > this.shapeRows) {
      this.shapeRows = Math.min(this.maxShapeRows, Math.max(rows, 2 * this.shapeRows, 16));
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32UI, SHAPE_TEXTURE_WIDTH, this.shapeRows, 0, gl.RGBA_INTEGER, gl.UNSIGNED_INT, null);
    }
    // (the painter's words come in whole rows: its buffer grows by doubling from whole rows)
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, SHAPE_TEXTURE_WIDTH, rows, gl.RGBA_INTEGER, gl.UNSIGNED_INT, words.subarray(0, rows * SHAPE_TEXTURE_WIDTH * 4));
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
  }

  /** The index buffer holds at least `count` quads: corners 0, 1, 2 and 2, 1, 3 of each. */
  private indexQuads(count: number): void {
    if (count <= this.indexedQuads) return;
    const n = Math.max(count, this.indexedQuads * 2, 4096);
    const idx = new Uint32Array(n * 6);
    for (let q = 0; q < n; q++) idx.set([4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 2, 4 * q + 1, 4 * q + 3], 6 * q);
    const gl = this.gl;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indices);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, idx, gl.STATIC_DRAW);
    this.indexedQuads = n;
  }
}

function texture(gl: WebGL2RenderingContext, filter: number, wrap: number): WebGLTexture {
  const t = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap);
  return t;
}

function link(gl: WebGL2RenderingContext, vertexSource: string, fragmentSource: string): WebGLProgram {
  const program = gl.createProgram()!;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, vertexSource],
    [gl.FRAGMENT_SHADER, fragmentSource],
  ] as const) {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost())
      throw new Error(`WebGL2 shader: ${gl.getShaderInfoLog(shader) ?? 'does not compile'}`);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost())
    throw new Error(`WebGL2 program: ${gl.getProgramInfoLog(program) ?? 'does not link'}`);
  return program;
}
