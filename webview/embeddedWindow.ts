// The window the host embedded in the page (base64 buffers, see BootMessage) back in wire form.
import type { EmbeddedWindow, EmbeddedWindowMessage, WindowMessage } from '../src/protocol/webview';
import type { WireWindow } from '../src/protocol/wire';

function bufferOf(base64: string): ArrayBuffer {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}

function tableOf(t: EmbeddedWindow['states']): { count: number; buffers: Record<string, ArrayBuffer> } {
  const buffers: Record<string, ArrayBuffer> = {};
  for (const [field, base64] of Object.entries(t.buffers)) buffers[field] = bufferOf(base64);
  return { count: t.count, buffers };
}

/** The pushed window message the embedded one stands for (the loader checks its sizes as for any). */
export function windowOfEmbedded(m: EmbeddedWindowMessage): WindowMessage {
  const e = m.payload;
  const payload = {
    header: e.header,
    states: tableOf(e.states),
    shadows: tableOf(e.shadows),
    shadowWeights: tableOf(e.shadowWeights),
    arrows: tableOf(e.arrows),
    events: tableOf(e.events),
  } as unknown as WireWindow;
  return { kind: 'window', requestId: 0, generation: m.generation, final: m.final, payload, pushedKey: m.pushedKey };
}
