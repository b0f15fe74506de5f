/** A typed set of listeners: how one component hands events (picks, commands) to another. */
export class Listeners<T> {
  private readonly fs = new Set<(v: T) => void>();

  on(f: (v: T) => void): () => void {
    this.fs.add(f);
    return () => this.fs.delete(f);
  }

  emit(v: T): void {
    for (const f of this.fs) f(v);
  }
}
