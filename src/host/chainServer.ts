/**
 * Answers a timeline's `requestChain`: the dependence chain of the state it names (backward: what
 * it waited for; forward: what it delayed), walked over the trace's wait-state analysis, with each
 * state placed on the rows of every Y map and a line of text for the chain's list.
 */
import { dependenceChain, type ChainState } from '../core/analysis/dependence';
import { chainEntryText } from '../core/analysis/waitText';
import type { ChainSource } from '../core/analysis/dependence';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import type { ChainInfo, ChainMessage, RequestChainMessage } from '../protocol/webview';
import { resolveDrawable, type DetailsAnnotator, type PayloadIdentities } from './detailsServer';
import type { TraceDocument } from './traceDocument';

/** What the trace editors get from the wait-state analysis: popup sentences and dependence chains. */
export interface TraceInsights {
  readonly annotate: DetailsAnnotator;
  readonly chainSource: ChainDeps['source'];
}

export interface ChainDeps {
  /** The analysed trace's chain source (undefined: the analysis failed or was stopped). */
  readonly source: (doc: TraceDocument, file: Slog2File) => Promise<{ readonly source: ChainSource; readonly capped: boolean } | undefined>;
  readonly identities?: PayloadIdentities;
  readonly maxDepth: () => number;
}

export async function answerChain(doc: TraceDocument, m: RequestChainMessage, deps: ChainDeps): Promise<ChainMessage> {
  const none = (message: string): ChainMessage => ({ kind: 'chain', chainId: m.chainId, message });
  const state = doc.state;
  if (state.phase !== 'ready' || m.generation !== doc.generation) return none('the trace was reloaded');
  const layout = state.layouts[m.ref.mapIndex];
  if (layout === undefined) return none('unknown Y map');
  if (m.ref.drawable !== 'state') return none('dependence chains start from a state');
  try {
    const p = await resolveDrawable(state.file, layout, m.ref, m.generation, deps.identities);
    const lineID = p?.vertices[0]?.lineID;
    const category = p === undefined ? undefined : state.file.categories.get(p.category);
    if (p === undefined || lineID === undefined || category === undefined) return none('state not found in the file');
    const analysed = await deps.source(doc, state.file);
    if (analysed === undefined) return none('the wait-state analysis of this trace did not finish');
    const selected: ChainState = { lineID, rank: '', category: p.category, name: category.name, enter: p.earliest, exit: p.latest };
    // The rank label as the analysis names it (the source reads the state back from the file).
    const exact = (await analysed.source.stateAt(lineID, category.name, p.earliest)) ?? selected;
    const chain = await dependenceChain(analysed.source, exact, m.direction, { maxDepth: deps.maxDepth() });
    const info: ChainInfo = {
      direction: chain.direction,
      maxDepth: chain.maxDepth,
      truncated: chain.truncated,
      nodes: chain.nodes.map((n) => ({
        rows: state.layouts.map((l) => l.rowOfLine.get(n.state.lineID) ?? -1),
        category: n.state.category,
        start: n.state.enter,
        end: n.state.exit,
        parent: n.parent,
        depth: n.depth,
        via: n.via,
        ...(n.link !== undefined ? { causeTime: n.link.causeTime, effectTime: n.link.effectTime } : {}),
        text: chainEntryText(n, chain.nodes[n.parent], chain.direction),
      })),
      ...(analysed.capped ? { note: 'the analysis kept only the first waits of this trace: later ones are not followed' } : {}),
    };
    return { kind: 'chain', chainId: m.chainId, chain: info };
  } catch (e) {
    return none(e instanceof Error ? e.message : String(e));
  }
}
