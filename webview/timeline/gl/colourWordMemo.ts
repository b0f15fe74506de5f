/**
 * A colour word (glColour.ts colourWord) of the last style and global alpha asked for: painters
 * set a style and draw a run of shapes in it (a zoomed-in frame fills ~20 000 boxes, and a word
 * per box, a map lookup of its CSS string and four roundings, was ~2.7 ms of such a frame's main
 * thread in the WebGL2 painter). No DOM here: the word function is given, and a style `S` is a
 * 2D context's fillStyle or strokeStyle (compared as a value: the same CSS string is the same style).
 */
export class ColourWordMemo<S> {
  private style: S | undefined;
  private alpha = 1;
  private word = 0;

  constructor(private readonly wordOf: (globalAlpha: number, style: S) => number) {}

  of(globalAlpha: number, style: S): number {
    if (style !== this.style || globalAlpha !== this.alpha) {
      this.word = this.wordOf(globalAlpha, style);
      this.style = style;
      this.alpha = globalAlpha;
    }
    return this.word;
  }
}
