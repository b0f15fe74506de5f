/**
 * The WebGL2 programs of the data layer (glPaint.ts), one per shape mode. Every shape is a quad
 * of four vertices drawn as two indexed triangles; the shape itself is written once, as
 * SHAPE_WORDS 32-bit words (premultiplied RGBA, a: vec4, b: vec4), into a texture of unsigned
 * integers that the vertex shader reads by gl_VertexID (shape = id / 4, corner = id % 4) and
 * places the corner. (Not instancing: software GL spends ~20 µs per instance, ~1 µs per four
 * vertices. Not the shape's words in each of its four vertices either: that was four times the
 * stores and the upload per shape, ~2 ms of a dense frame's main thread.) Coverage is
 * computed per pixel from the shape's exact geometry (a rect's overlap with the pixel, a line's
 * distance), so edges are anti-aliased as canvas2d anti-aliases them, without multisampling.
 * Modes:
 * - RECT: a = x0, y0, x1, y1 (device px), the colour.
 * - STRIP: a = rect; b.x = device x of column 0, b.y = texture row, b.z = column width (device px):
 *   texels of the line texture, nearest.
 * - PATTERN: a = rect; b.xy = the pattern's origin (device px), b.z = device px per pattern px:
 *   the repeating pattern texture.
 * - IMAGE: a = clip rect; b = the image's destination rect.
 * - TEXT: a = rect; b.xy = the device position of the atlas texel (0, 0) — one texel per pixel.
 * - SEGMENT: a = endpoints; b.x = half width, b.y = 1 for round caps.
 * - TRIANGLE: a = first two corners, b.xy = the third; b.z = 1 to anti-alias its edges.
 * A program per mode, not one with a branch per mode: software GL (SwiftShader) runs every
 * branch's code for every fragment, texture fetches included (the viewport bench's dense frame,
 * pixels waited for: median 126.5 ms with one program, 85.3 ms with these, 3 alternating runs).
 * A quad is its shape's bounds grown by a pixel for the anti-aliased edge, on the sides that are
 * not on a pixel boundary: a device-aligned strip of one pixel row is one row of fragments, not
 * three. The fragment's position is its pixel centre from gl_FragCoord (exact; a position
 * interpolated over the quad was off in its last bits, a few levels of 255 on edges).
 */
export const MODE = { RECT: 0, STRIP: 1, PATTERN: 2, IMAGE: 3, TEXT: 4, SEGMENT: 5, TRIANGLE: 6 } as const;

/**
 * Words per shape: three texels of the shape texture, (colour, a.x, a.y, a.z), (a.w, b.x, b.y,
 * b.z), (b.w, 0, 0, 0); the colour's bytes are R, G, B, A from the lowest, the others float bits.
 */
export const SHAPE_WORDS = 12;
/** Texels a row of the shape texture (a power of two: the shader splits an index with shifts). */
export const SHAPE_TEXTURE_WIDTH = 2048;
const SHAPE_TEXTURE_SHIFT = Math.log2(SHAPE_TEXTURE_WIDTH);

/** Where a corner of mode `m`'s quad is (device px), as GLSL setting `p`. */
function cornerOf(m: number): string {
  if (m === MODE.SEGMENT)
    return `vec2 d = a.zw - a.xy;
  float len = length(d);
  vec2 u = len > 0.0 ? d / len : vec2(1.0, 0.0);
  vec2 n = vec2(-u.y, u.x);
  float e = b.x + 1.0;
  p = (corner.x < 0.5 ? a.xy - u * e : a.zw + u * e) + n * (corner.y < 0.5 ? -e : e);`;
  if (m === MODE.TRIANGLE) return 'p = corner.y < 0.5 ? (corner.x < 0.5 ? a.xy : a.zw) : b.xy;';
  // a side on a pixel boundary covers no pixel beyond it: no fragments there
  return `vec4 grow = vec4(notEqual(fract(a), vec4(0.0)));
  p = vec2(corner.x < 0.5 ? a.x - grow.x : a.z + grow.z, corner.y < 0.5 ? a.y - grow.y : a.w + grow.w);`;
}

/** The colour and coverage of mode `m` at pixel centre `c`, as GLSL setting `col` and `cov`. */
function colourOf(m: number): string {
  if (m === MODE.SEGMENT)
    return `vec2 d = vA.zw - vA.xy;
  float len = length(d);
  vec2 u = len > 0.0 ? d / len : vec2(1.0, 0.0);
  vec2 r = c - vA.xy;
  float t = dot(r, u);
  if (vB.y > 0.5) cov = clamp(vB.x + 0.5 - length(r - u * clamp(t, 0.0, len)), 0.0, 1.0);
  else cov = clamp(vB.x + 0.5 - abs(dot(r, vec2(-u.y, u.x))), 0.0, 1.0) * clamp(min(t, len - t) + 0.5, 0.0, 1.0);
  col = vColour;`;
  if (m === MODE.TRIANGLE)
    return `if (vB.z > 0.5) {
    vec2 p0 = vA.xy, p1 = vA.zw, p2 = vB.xy;
    float s = sign((p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x));
    cov = clamp(min(min(edge(p0, p1, c, s), edge(p1, p2, c, s)), edge(p2, p0, c, s)) + 0.5, 0.0, 1.0);
  } else cov = 1.0;
  col = vColour;`;
  const texel: Record<number, string> = {
    [MODE.RECT]: 'vColour',
    [MODE.STRIP]: 'texelFetch(uLines, ivec2(int(floor((c.x - vB.x) / vB.z)), int(vB.y)), 0) * vColour.a',
    [MODE.PATTERN]: 'texture(uPattern, (c - vB.xy) / (uPatternSize * vB.z)) * vColour.a',
    [MODE.IMAGE]: 'texture(uImage, (c - vB.xy) / (vB.zw - vB.xy)) * vColour.a',
    [MODE.TEXT]: 'texelFetch(uAtlas, ivec2(floor(c - vB.xy)), 0) * vColour.a',
  };
  return `cov = cover(vA.x, vA.z, c.x) * cover(vA.y, vA.w, c.y);
  col = ${texel[m]!};`;
}

/** The vertex shader of mode `m`'s program. */
export function vertexShader(m: number): string {
  return `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
uniform usampler2D uShapes;
uniform vec2 uSize;
flat out vec4 vColour;
flat out vec4 vA;
flat out vec4 vB;
uvec4 shapeTexel(int i) { return texelFetch(uShapes, ivec2(i & ${SHAPE_TEXTURE_WIDTH - 1}, i >> ${SHAPE_TEXTURE_SHIFT}), 0); }
void main() {
  int at = 3 * (gl_VertexID >> 2);
  int cornerIndex = gl_VertexID & 3;
  vec2 corner = vec2(float(cornerIndex & 1), float(cornerIndex >> 1));
  uvec4 t0 = shapeTexel(at);
  uvec4 t1 = shapeTexel(at + 1);
  uvec4 t2 = shapeTexel(at + 2);
  vec4 colour = vec4(uvec4(t0.x, t0.x >> 8u, t0.x >> 16u, t0.x >> 24u) & 255u) / 255.0;
  vec4 a = uintBitsToFloat(uvec4(t0.yzw, t1.x));
  vec4 b = uintBitsToFloat(uvec4(t1.yzw, t2.x));
  vec2 p;
  ${cornerOf(m)}
  vColour = colour;
  vA = a;
  vB = b;
  gl_Position = vec4(p.x / uSize.x * 2.0 - 1.0, 1.0 - p.y / uSize.y * 2.0, 0.0, 1.0);
}`;
}

/** The fragment shader of mode `m`'s program. */
export function fragmentShader(m: number): string {
  return `#version 300 es
precision highp float;
precision highp int;
flat in vec4 vColour;
flat in vec4 vA;
flat in vec4 vB;
uniform sampler2D uLines;
uniform sampler2D uAtlas;
uniform sampler2D uPattern;
uniform sampler2D uImage;
uniform vec2 uSize;
uniform vec2 uPatternSize;
out vec4 outColour;
float cover(float lo, float hi, float c) { return clamp(min(c + 0.5, hi) - max(c - 0.5, lo), 0.0, 1.0); }
float edge(vec2 p, vec2 q, vec2 c, float s) {
  vec2 d = q - p;
  float len = length(d);
  return len > 0.0 ? s * (d.x * (c.y - p.y) - d.y * (c.x - p.x)) / len : 1e9;
}
void main() {
  // the pixel's centre in device px, y down: exact, where a value interpolated over the quad is not
  vec2 c = vec2(gl_FragCoord.x, uSize.y - gl_FragCoord.y);
  float cov;
  vec4 col;
  ${colourOf(m)}
  outColour = col * cov;
}`;
}

/** Every mode, in MODE's order (a program each). */
export const MODES: readonly number[] = Object.values(MODE);
